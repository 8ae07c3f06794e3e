package org.softrnic.emulator.fabric;

import org.softrnic.nic.LinkProfile;
import org.softrnic.nic.PacketReceiver;
import org.softrnic.nic.PacketSink;

/**
 * A soft RNIC's attachment to a fabric, driven by the device's event loop: packets go out through the
 * {@link PacketSink} side and come in through {@link #poll}; between bursts the loop sleeps in
 * {@link #await} until a packet comes, another thread calls {@link #wakeup}, or its deadline passes.
 */
public interface Port extends PacketSink, AutoCloseable {
    /** Hands up to {@code budget} received packets to {@code nic}; returns how many. Loop thread only. */
    int poll(PacketReceiver nic, int budget);

    /**
     * Sleeps until a packet may be waiting, {@link #wakeup} is called, or {@code deadline} (System.nanoTime)
     * passes; does not sleep at all if {@code idle} turns false once the port has marked itself asleep, so a
     * wakeup that raced with falling asleep is never lost.
     */
    void await(long deadline, java.util.function.BooleanSupplier idle);

    /** Sends what the device handed over and the port holds back to batch; the loop calls it after each turn. */
    default void flush() {
    }

    /**
     * A port that changes packets after the device built them records what leaves itself, so a trace shows the
     * wire: returns whether it took {@code tap}.
     */
    default boolean tapSent(PacketSink tap) {
        return false;
    }

    /** Ends an {@link #await} early; any thread, and cheap when the loop is not asleep. */
    void wakeup();

    /** The UDP socket under this port (through any decorator), or null when there is none. */
    default UdpPort udp() {
        return null;
    }

    /** Where the device's own packet buffers come from: they may travel the fabric, so they live as long as it. */
    java.lang.foreign.Arena arena();

    /** What this port does to the headers the ICRC covers. */
    LinkProfile profile();

    /** Called once on the loop thread before it polls. */
    default void bind(Thread loop) {
    }

    /** The RoCE UDP port the device must use because the link fixes it (a UDP socket's), or 0. */
    default int rocePort() {
        return 0;
    }

    /**
     * A QP or address handle will send to {@code dgid}: a port that resolves link addresses starts now, as rxe
     * resolves the destination MAC when the QP gets its address vector. Loop thread only.
     */
    default void resolve(org.softrnic.verbs.Gid dgid) {
    }

    /** The RC PSNs the device may keep in flight over all its QPs before this link starts to drop, or 0: no bound. */
    /**
     * The IP MTU of the link (what the kernel's netdev MTU is to rxe): the RDMA CM's routes take their path MTU
     * from it. 0: no bound (the in-process fabric).
     */
    default int ipMtu() {
        return 0;
    }

    default int txWindow() {
        return 0;
    }

    /** Packets this port dropped on the way out (loss injected, no such destination, full queues). */
    long dropped();

    /**
     * What the link's fault model did to this port's packets, under the counter names link_dropped,
     * link_duplicated, link_reordered and link_ecn_marked; a link that only drops reports the others as 0.
     */
    default void putLinkCounts(java.util.Map<String, Long> counters) {
        org.softrnic.nic.sim.LinkCounts.put(counters, dropped(), 0, 0, 0);
    }

    @Override
    void close();
}
