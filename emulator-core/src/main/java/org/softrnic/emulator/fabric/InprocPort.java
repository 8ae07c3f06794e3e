package org.softrnic.emulator.fabric;

import java.lang.foreign.Arena;
import java.util.ArrayDeque;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.softrnic.emulator.concurrent.SlotRing;
import org.softrnic.nic.LinkProfile;
import org.softrnic.nic.Nic;
import org.softrnic.nic.PacketReceiver;
import org.softrnic.nic.PacketSink;
import org.softrnic.nic.sim.LinkFaults;
import org.softrnic.verbs.Gid;
import org.softrnic.wire.PacketBuffer;

/**
 * One device's attachment to an {@link InprocFabric}. Sending hands the device's buffer itself to the
 * receiver's inbound queue and gives the device a free one back, so a packet is never copied on the way;
 * the receiver holds frames back until their (fault-injected) due time and returns them to their sender.
 * Allocation stops once the port has made its frames.
 */
public final class InprocPort implements Port {
    /** Frames a port can have in flight; past this a send is refused and the device counts send_err. */
    static final int MAX_FRAMES = 2048;
    private static final int INBOUND = 4096;

    private static final class Cell {
        Frame frame;
    }

    private final InprocFabric fabric;
    final int index;
    final String name;
    final List<Gid> gids;
    final LinkFaults faults;
    private final long seed;
    private final SlotRing<Cell> inbound = new SlotRing<>(INBOUND, i -> new Cell());
    private final SlotRing<Cell> returned = new SlotRing<>(MAX_FRAMES, i -> new Cell());
    private final ArrayDeque<Frame> free = new ArrayDeque<>();
    private final FrameHeap held = new FrameHeap();
    private SplittableRandom[] randoms = new SplittableRandom[0];
    private int made;
    private long order;
    /** What the fault model did to this port's packets (written on the sender's thread: this port's). */
    private final org.softrnic.nic.sim.LinkCounts counts = new org.softrnic.nic.sim.LinkCounts();
    private volatile boolean asleep;
    private volatile Thread loop;

    InprocPort(InprocFabric fabric, int index, String name, List<Gid> gids, LinkFaults faults, long seed) {
        this.fabric = fabric;
        this.index = index;
        this.name = name;
        this.gids = List.copyOf(gids);
        this.faults = faults;
        this.seed = seed;
    }

    @Override
    public LinkProfile profile() {
        return LinkProfile.IN_PROCESS;
    }

    @Override
    public Arena arena() {
        return fabric.arena();
    }

    @Override
    public void bind(Thread loop) {
        this.loop = loop;
    }

    @Override
    public void putLinkCounts(java.util.Map<String, Long> counters) {
        counts.putInto(counters);
    }

    @Override
    public long dropped() {
        return counts.droppedCount();
    }

    @Override
    public boolean transmit(PacketBuffer buffer, int offset, int length) {
        return send(buffer, offset, length, true) != null;
    }

    @Override
    public PacketBuffer handOver(PacketBuffer buffer, int offset, int length) {
        return send(buffer, offset, length, false);
    }

    /** Sends the packet in a frame of this port's (a copy) or in {@code buffer} itself; returns the device's next buffer. */
    private PacketBuffer send(PacketBuffer buffer, int offset, int length, boolean copy) {
        InprocPort to = fabric.route(buffer.segment, offset);
        if (to == null) {
            counts.dropped(); // no device has that address: gone, as on a real network
            return buffer;
        }
        LinkFaults f = fabric.faults(this, to);
        SplittableRandom r = random(to.index);
        if (LinkFaultModel.lost(f, r, counts)) return buffer;
        Frame frame = take();
        if (frame == null) return null;
        PacketBuffer back = frame.carry(buffer, offset, length, copy);
        frame.due = LinkFaultModel.due(f, r, counts, System.nanoTime(), frame.buffer.segment, offset);
        if (LinkFaultModel.duplicated(f, r)) {
            Frame twin = take();
            if (twin != null) {
                counts.duplicated();
                twin.copyOf(frame);
                twin.due = LinkFaultModel.twinDue(f, r, frame.due);
                send(to, twin);
            }
        }
        send(to, frame);
        return back;
    }

    private SplittableRandom random(int to) {
        if (to >= randoms.length) randoms = java.util.Arrays.copyOf(randoms, Math.max(to + 1, randoms.length * 2));
        SplittableRandom r = randoms[to];
        if (r == null) randoms[to] = r = new SplittableRandom(seed * 31 + to);
        return r;
    }

    private void send(InprocPort to, Frame frame) {
        if (!to.accept(frame)) {
            counts.dropped();
            free.push(frame);
        }
    }

    /** Sender's thread: queues a frame for this port. */
    private boolean accept(Frame frame) {
        long pos = inbound.tryClaim();
        if (pos < 0) return false;
        inbound.slot(pos).frame = frame;
        inbound.publish(pos);
        wakeup();
        return true;
    }

    /** A free frame of this port's own, or null when all are in flight. */
    private Frame take() {
        Frame f = free.poll();
        if (f != null) return f;
        for (Cell c; (c = returned.peek()) != null; returned.release()) {
            free.push(c.frame);
            c.frame = null;
        }
        f = free.poll();
        if (f != null || made >= MAX_FRAMES) return f;
        made++;
        return new Frame(this, PacketBuffer.allocate(fabric.arena(), PacketSink.BUFFER_BYTES));
    }

    /** Receiver's thread: the frame goes home to the port that sent it. */
    private void giveBack(Frame f) {
        if (f.owner == this) {
            free.push(f);
            return;
        }
        long pos = f.owner.returned.tryClaim(); // never full: it holds at most the owner's own frames
        f.owner.returned.slot(pos).frame = f;
        f.owner.returned.publish(pos);
    }

    @Override
    public int poll(PacketReceiver nic, int budget) {
        for (Cell c; (c = inbound.peek()) != null; inbound.release()) {
            c.frame.order = order++;
            held.add(c.frame);
            c.frame = null;
        }
        if (held.isEmpty()) return 0;
        long now = System.nanoTime();
        int n = 0;
        while (n < budget && !held.isEmpty() && held.peek().due <= now) {
            int k = 0;
            while (k < Nic.BURST && n + k < budget && !held.isEmpty() && held.peek().due <= now) {
                Frame f = held.poll();
                burst[k] = f;
                buffers[k] = f.buffer;
                offsets[k] = f.offset;
                lengths[k++] = f.length;
            }
            receive(nic, k);
            n += k;
        }
        return n;
    }

    /** Frames taken off {@link #held} together, and their packets, for the device to warm (see {@link Nic#warm}). */
    private final Frame[] burst = new Frame[Nic.BURST];
    private final PacketBuffer[] buffers = new PacketBuffer[Nic.BURST];
    private final int[] offsets = new int[Nic.BURST];
    private final int[] lengths = new int[Nic.BURST];

    /**
     * Receives the first {@code k} frames of {@link #burst} in order, each given back once; if one fails, the
     * ones not yet received wait in {@link #held} again, in their places.
     */
    private void receive(PacketReceiver nic, int k) {
        int next = 0;
        try {
            nic.warm(buffers, offsets, lengths, 0, k);
            while (next < k) {
                Frame f = burst[next];
                burst[next] = null;
                buffers[next++] = null;
                try {
                    nic.receive(f.buffer, f.offset, f.length);
                } finally {
                    giveBack(f); // whatever happens, the frame goes home
                }
            }
        } finally {
            for (int j = next; j < k; j++) {
                held.add(burst[j]); // their order numbers put them back first
                burst[j] = null;
                buffers[j] = null;
            }
        }
    }

    @Override
    public void await(long deadline, BooleanSupplier idle) {
        asleep = true;
        try {
            if (!idle.getAsBoolean() || !inbound.isEmpty()) return;
            Frame next = held.peek();
            long until = next == null ? deadline : Math.min(deadline, next.due);
            long wait = until - System.nanoTime();
            if (wait > 0) LockSupport.parkNanos(this, wait);
        } finally {
            asleep = false;
        }
    }

    @Override
    public void wakeup() {
        Thread t = loop;
        if (asleep && t != null) LockSupport.unpark(t);
    }

    /** Leaves the fabric; frames sent to this port and not yet delivered go back to their senders. */
    @Override
    public void close() {
        fabric.detach(this);
        for (Cell c; (c = inbound.peek()) != null; inbound.release()) {
            giveBack(c.frame);
            c.frame = null;
        }
        while (!held.isEmpty()) giveBack(held.poll());
    }

    @Override
    public String toString() {
        return "inproc port " + name;
    }
}
