package org.softrnic.emulator.soft;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.softrnic.verbs.Errno;
import org.softrnic.verbs.VerbsException;
import org.softrnic.verbs.cm.CmEvent;
import org.softrnic.verbs.cm.CmId;
import org.softrnic.verbs.cm.EventChannel;
import org.softrnic.verbs.cm.PortSpace;

/** An rdma_cm event channel over soft RNICs: a queue the devices' threads fill. */
final class SoftEventChannel implements EventChannel {
    private final LinkedBlockingQueue<CmEvent> events = new LinkedBlockingQueue<>();
    /** The devices this channel's ids are on: a wait moves those the caller's thread drives. */
    private final Set<SoftRnic> devices = ConcurrentHashMap.newKeySet();
    final Set<SoftCmId> ids = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    @Override
    public CmId createId(PortSpace ps) {
        if (closed) throw new VerbsException("rdma_create_id", Errno.EINVAL, "the event channel is closed");
        SoftCmId id = new SoftCmId(this, ps, null, null, null);
        ids.add(id);
        return id;
    }

    void uses(SoftRnic device) {
        devices.add(device);
    }

    /**
     * The verbs context this channel's ids use on {@code device}, opened on first use and shared by them all
     * (a listener's and its connections'), as librdmacm keeps one per device: closed with the channel.
     */
    synchronized org.softrnic.verbs.RdmaContext context(SoftRnic device) {
        return contexts.computeIfAbsent(device, SoftRnic::open);
    }

    private final java.util.Map<SoftRnic, org.softrnic.verbs.RdmaContext> contexts = new java.util.HashMap<>();

    void deliver(CmEvent e) {
        events.add(e);
    }

    @Override
    public CmEvent getEvent(Duration timeout) throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        while (true) {
            CmEvent e = events.poll();
            if (e != null) return e;
            boolean driven = false;
            boolean moved = false;
            boolean virtual = false;
            for (SoftRnic d : devices) {
                if (!d.runner.drivesProgress()) continue;
                driven = true;
                virtual |= d.runner.virtual();
                moved |= d.runner.idleUntil(() -> !events.isEmpty());
            }
            long left = end - System.nanoTime();
            if (!driven) return left <= 0 ? events.poll() : events.poll(left, TimeUnit.NANOSECONDS);
            if ((virtual && !moved && events.isEmpty()) || left <= 0) return events.poll();
            if (!moved) Thread.onSpinWait();
        }
    }

    /**
     * rdma_destroy_event_channel. A connection request the application never took (its CONNECT_REQUEST still
     * queued) goes with it, refused as its destroy refuses it, as the kernel's ucma_close destroys what the file
     * still holds; an id the application took and did not close is EBUSY.
     */
    @Override
    public void close() {
        for (CmEvent e; (e = events.poll()) != null; ) {
            if (e.type() == org.softrnic.verbs.cm.CmEventType.CONNECT_REQUEST && ids.contains(e.id())) e.id().close();
        }
        if (!ids.isEmpty()) throw new VerbsException("rdma_destroy_event_channel", Errno.EBUSY, ids.size() + " ids are still open on it");
        closed = true;
        synchronized (this) {
            for (org.softrnic.verbs.RdmaContext c : contexts.values()) c.close();
            contexts.clear();
        }
    }
}
