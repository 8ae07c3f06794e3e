package org.softrnic.emulator.fabric;

import java.lang.foreign.Arena;
import java.util.ArrayDeque;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.BooleanSupplier;
import org.softrnic.nic.LinkProfile;
import org.softrnic.nic.PacketReceiver;
import org.softrnic.nic.PacketSink;
import org.softrnic.nic.sim.LinkCounts;
import org.softrnic.nic.sim.LinkFaults;
import org.softrnic.verbs.Gid;
import org.softrnic.wire.PacketBuffer;

/**
 * The in-process fabric's fault model ({@link LinkFaultModel}) around a port that has none of its own (kernel
 * UDP, a frame port): what the device sends is lost, delayed, reordered, duplicated or marked CE as the seeded
 * {@link LinkFaults} say, then goes on to the real link; each fault is counted under the link_* counters,
 * beside what the link itself dropped. The other direction is the peer's to fault.
 */
public final class FaultyPort implements Port {
    /** Packets held back at once; past that a packet is dropped and counted, as by a full queue. */
    private static final int MAX_HELD = 1024;

    private final Port inner;
    private final LinkFaults faults;
    private final SplittableRandom random;
    private final LinkCounts counts = new LinkCounts();
    private final FrameHeap held = new FrameHeap();
    private final ArrayDeque<Frame> free = new ArrayDeque<>();
    private int made;
    private long order;

    public FaultyPort(Port inner, LinkFaults faults, long seed) {
        this.inner = inner;
        this.faults = faults;
        this.random = new SplittableRandom(seed);
    }

    @Override
    public UdpPort udp() {
        return inner.udp();
    }

    /** The port the faults are applied in front of. */
    public Port inner() {
        return inner;
    }

    @Override
    public PacketBuffer handOver(PacketBuffer buffer, int offset, int length) {
        return send(buffer, offset, length, false);
    }

    @Override
    public boolean transmit(PacketBuffer buffer, int offset, int length) {
        return send(buffer, offset, length, true) != null;
    }

    /** As the in-process fabric's ports: the buffer itself is held (a free one goes back), or a copy of it. */
    private PacketBuffer send(PacketBuffer buffer, int offset, int length, boolean copy) {
        long now = System.nanoTime();
        release(now); // what is due leaves before this one
        if (LinkFaultModel.lost(faults, random, counts)) return buffer;
        Frame frame = take();
        if (frame == null) return null; // the device counts send_err, as for a full socket
        PacketBuffer back = frame.carry(buffer, offset, length, copy);
        hold(frame, LinkFaultModel.due(faults, random, counts, now, frame.buffer.segment, offset));
        if (LinkFaultModel.duplicated(faults, random)) {
            Frame twin = take();
            if (twin != null) {
                counts.duplicated();
                twin.copyOf(frame);
                hold(twin, LinkFaultModel.twinDue(faults, random, frame.due));
            }
        }
        return back;
    }

    private void hold(Frame f, long due) {
        f.due = due;
        f.order = order++;
        held.add(f);
    }

    private Frame take() {
        Frame f = free.poll();
        if (f != null || made >= MAX_HELD) return f;
        made++;
        return new Frame(null, PacketBuffer.allocate(inner.arena(), PacketSink.BUFFER_BYTES));
    }

    /** Sends what is due by {@code now}, in due order. */
    private void release(long now) {
        while (!held.isEmpty() && held.peek().due <= now) {
            Frame f = held.poll();
            try {
                if (!inner.transmit(f.buffer, f.offset, f.length)) counts.dropped();
            } finally {
                free.push(f);
            }
        }
    }

    @Override
    public int poll(PacketReceiver nic, int budget) {
        release(System.nanoTime());
        return inner.poll(nic, budget);
    }

    @Override
    public boolean tapSent(PacketSink tap) {
        return inner.tapSent(tap);
    }

    @Override
    public void flush() {
        release(System.nanoTime());
        inner.flush();
    }

    @Override
    public void await(long deadline, BooleanSupplier idle) {
        Frame next = held.peek();
        inner.await(next == null ? deadline : Math.min(deadline, next.due), idle);
    }

    @Override
    public void wakeup() {
        inner.wakeup();
    }

    @Override
    public Arena arena() {
        return inner.arena();
    }

    @Override
    public LinkProfile profile() {
        return inner.profile();
    }

    @Override
    public void bind(Thread loop) {
        inner.bind(loop);
    }

    @Override
    public int rocePort() {
        return inner.rocePort();
    }

    @Override
    public void resolve(Gid dgid) {
        inner.resolve(dgid);
    }

    @Override
    public int ipMtu() {
        return inner.ipMtu();
    }

    @Override
    public int txWindow() {
        return inner.txWindow();
    }

    @Override
    public long dropped() {
        return counts.droppedCount() + inner.dropped();
    }

    @Override
    public void putLinkCounts(Map<String, Long> counters) {
        LinkCounts.put(counters, dropped(), counts.duplicatedCount(), counts.reorderedCount(), counts.ecnMarkedCount());
    }

    @Override
    public void close() {
        inner.close();
    }

    @Override
    public String toString() {
        return inner + " with faults " + faults;
    }
}
