package org.softrnic.emulator.cabi;

import static org.softrnic.emulator.rdmacore.RdmaCoreLayout.*;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.ConcurrentHashMap;
import org.softrnic.verbs.CompletionChannel;
import org.softrnic.verbs.CompletionQueue;
import org.softrnic.verbs.WorkCompletion;

/**
 * Completion queues and completion channels. A channel's fd is a {@link CabiPump}'s eventfd, fed from the verbs
 * channel's CQ events, which ibv_get_cq_event then takes.
 */
final class CabiCqs {
    /** A CQ: the verbs queue, its struct, and the completions a poll reads into before they are written out. */
    static final class Cq {
        final CompletionQueue cq;
        final MemorySegment struct;
        final Arena arena;
        final WorkCompletion[] batch = new WorkCompletion[64];

        Cq(CompletionQueue cq, MemorySegment struct, Arena arena) {
            this.cq = cq;
            this.struct = struct;
            this.arena = arena;
            for (int i = 0; i < batch.length; i++) batch[i] = new WorkCompletion();
        }
    }

    /** A channel: the verbs channel, its struct, and the pump that makes its fd. */
    record Channel(CompletionChannel channel, MemorySegment struct, Arena arena, CabiPump<CompletionQueue> pump) {}

    static final CabiHandles<Cq> CQS = new CabiHandles<>();
    static final ConcurrentHashMap<Integer, Channel> CHANNELS = new ConcurrentHashMap<>();
    /** Each verbs CQ's struct, for the events a channel hands back. */
    static final ConcurrentHashMap<CompletionQueue, Cq> BY_QUEUE = new ConcurrentHashMap<>();

    private CabiCqs() {
    }

    static Cq cq(MemorySegment cq) {
        return cq(cq.address());
    }

    static Cq cq(long address) {
        if (address == 0) throw Cabi.invalid("no completion queue (NULL)");
        Cq c = CQS.get(CabiMemory.getInt(address + CQ_HANDLE));
        if (c == null || c.struct.address() != address) throw Cabi.invalid("not a completion queue of softrnic0");
        return c;
    }

    static MemorySegment ibv_create_comp_channel(MemorySegment context) {
        CompletionChannel ch = CabiDevices.context(context).createCompChannel();
        Arena arena = Arena.ofShared();
        MemorySegment s = arena.allocate(CHANNEL_SIZE, 8).fill((byte) 0);
        Channel c = new Channel(ch, s, arena, new CabiPump<>("softrnic-comp-channel", ch::getCqEvent));
        s.set(ValueLayout.ADDRESS, CHANNEL_CONTEXT, context);
        s.set(ValueLayout.JAVA_INT, CHANNEL_FD, c.pump().fd.fd);
        CHANNELS.put(c.pump().fd.fd, c);
        return s;
    }

    static int ibv_destroy_comp_channel(MemorySegment channel) {
        Channel c = CHANNELS.get(channel.reinterpret(CHANNEL_SIZE).get(ValueLayout.JAVA_INT, CHANNEL_FD));
        if (c == null) return 22;
        c.channel().close(); // EBUSY while a CQ uses it: the channel stays
        c.pump().close();
        CHANNELS.remove(c.pump().fd.fd);
        c.arena().close();
        return 0;
    }

    static MemorySegment ibv_create_cq(MemorySegment context, int cqe, MemorySegment cqContext, MemorySegment channel, int compVector) {
        Channel ch = null;
        if (!channel.equals(MemorySegment.NULL)) {
            ch = CHANNELS.get(channel.reinterpret(CHANNEL_SIZE).get(ValueLayout.JAVA_INT, CHANNEL_FD));
            if (ch == null) throw Cabi.invalid("not a completion channel of softrnic0");
        }
        CompletionQueue q = CabiDevices.context(context).createCq(cqe, ch == null ? null : ch.channel());
        Arena arena = Arena.ofShared();
        MemorySegment s = arena.allocate(CQ_SIZE, 8).fill((byte) 0);
        Cq c = new Cq(q, s, arena);
        s.set(ValueLayout.ADDRESS, CQ_CONTEXT, context);
        s.set(ValueLayout.ADDRESS, CQ_CHANNEL, channel);
        s.set(ValueLayout.ADDRESS, CQ_CQ_CONTEXT, cqContext);
        s.set(ValueLayout.JAVA_INT, CQ_CQE, q.cqe());
        s.set(ValueLayout.JAVA_INT, CQ_HANDLE, CQS.add(c));
        BY_QUEUE.put(q, c);
        return s;
    }

    static int ibv_destroy_cq(MemorySegment cq) {
        Cq c = cq(cq);
        // events the pump queued that the program never read are not its to acknowledge: the kernel drops them too
        MemorySegment channel = c.struct.get(ValueLayout.ADDRESS, CQ_CHANNEL);
        Channel ch = channel.equals(MemorySegment.NULL) ? null : CHANNELS.get(channel.reinterpret(CHANNEL_SIZE).get(ValueLayout.JAVA_INT, CHANNEL_FD));
        if (ch != null) {
            int unread = ch.pump().discard(q -> q == c.cq);
            if (unread > 0) c.cq.ackEvents(unread);
        }
        c.cq.close();
        BY_QUEUE.remove(c.cq);
        CQS.remove(c.struct.get(ValueLayout.JAVA_INT, CQ_HANDLE));
        c.arena.close();
        return 0;
    }

    /** Blocks until the channel has an event, as a read of the kernel's does; -1 when it fails. */
    static int ibv_get_cq_event(MemorySegment channel, MemorySegment cqOut, MemorySegment contextOut) {
        Channel c = CHANNELS.get(channel.reinterpret(CHANNEL_SIZE).get(ValueLayout.JAVA_INT, CHANNEL_FD));
        CompletionQueue q = c == null ? null : c.pump().take();
        Cq cq = q == null ? null : BY_QUEUE.get(q);
        if (cq == null) return -1;
        cqOut.reinterpret(8).set(ValueLayout.ADDRESS, 0, cq.struct);
        contextOut.reinterpret(8).set(ValueLayout.ADDRESS, 0, cq.struct.get(ValueLayout.ADDRESS, CQ_CQ_CONTEXT));
        return 0;
    }

    static void ibv_ack_cq_events(MemorySegment cq, int n) {
        Cq c = cq(cq);
        c.cq.ackEvents(n);
        c.struct.set(ValueLayout.JAVA_INT, CQ_COMP_EVENTS_COMPLETED, c.struct.get(ValueLayout.JAVA_INT, CQ_COMP_EVENTS_COMPLETED) + n);
    }
}
