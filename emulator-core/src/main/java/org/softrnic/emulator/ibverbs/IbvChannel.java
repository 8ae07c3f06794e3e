package org.softrnic.emulator.ibverbs;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import org.softrnic.verbs.CompletionChannel;
import org.softrnic.verbs.CompletionQueue;
import org.softrnic.verbs.Errno;

/** struct ibv_comp_channel: its fd is non-blocking and waited on with poll(2), so waits time out. */
final class IbvChannel extends IbvResource implements CompletionChannel {
    private final IbvContext context;
    private final int fd;

    IbvChannel(IbvContext context, MemorySegment channel) {
        super(channel.reinterpret(org.softrnic.emulator.rdmacore.RdmaCoreLayout.CHANNEL_FD + 4), context);
        this.context = context;
        this.fd = ptr.get(JAVA_INT, org.softrnic.emulator.rdmacore.RdmaCoreLayout.CHANNEL_FD);
        Fds.nonBlocking(fd, "ibv_create_comp_channel");
    }

    @Override
    String describe() {
        return "completion channel fd " + fd;
    }

    @Override
    String destroyVerb() {
        return "ibv_destroy_comp_channel";
    }

    @Override
    void destroy() {
        IbvLib.check(destroyVerb(), describe(), IbvLib.get().destroyCompChannel, ptr);
    }

    @Override
    public CompletionQueue getCqEvent(Duration timeout) throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        try (Arena a = Arena.ofConfined()) {
            MemorySegment cqOut = a.allocate(ADDRESS);
            MemorySegment contextOut = a.allocate(ADDRESS);
            while (true) {
                live("ibv_get_cq_event");
                if (!Fds.awaitReadable(fd, Duration.ofNanos(Math.max(0, end - System.nanoTime())))) return null;
                synchronized (this) {
                    int rc = (int) IbvLib.call(IbvLib.get().getCqEvent, live("ibv_get_cq_event"), cqOut, contextOut);
                    if (rc == 0) {
                        IbvCq cq = (IbvCq) context.known(cqOut.get(ADDRESS, 0).address());
                        cq.eventDelivered();
                        return cq;
                    }
                    int errno = IbvLib.errno();
                    // another thread took the event between poll(2) and the read: wait again
                    if (errno != Errno.EAGAIN.value) throw IbvLib.failed("ibv_get_cq_event", errno, describe());
                }
            }
        }
    }
}
