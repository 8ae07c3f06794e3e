package org.softrnic.emulator.ibverbs;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static org.softrnic.emulator.rdmacore.RdmaCoreLayout.*;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.softrnic.verbs.AddressVector;
import org.softrnic.verbs.Errno;
import org.softrnic.verbs.Gid;
import org.softrnic.verbs.VerbsException;
import org.softrnic.verbs.cm.CmEvent;
import org.softrnic.verbs.cm.CmEventType;
import org.softrnic.verbs.cm.CmId;
import org.softrnic.verbs.cm.ConnParam;
import org.softrnic.verbs.cm.EventChannel;
import org.softrnic.verbs.cm.PortSpace;
import org.softrnic.verbs.cm.UdParam;

/**
 * struct rdma_event_channel through librdmacm: its fd is waited on with a timeout, then rdma_get_cm_event reads
 * one event, which is copied into a {@link CmEvent} (private data included) and acknowledged at once.
 */
final class IbvEventChannel implements EventChannel {
    private final MemorySegment ptr;
    private final int fd;
    /** The ids of this channel by native address: an event names them so. */
    final Map<Long, IbvCmId> ids = new ConcurrentHashMap<>();
    /** Readers of the channel (getEvent) against its close: the native channel and its fd outlive every read. */
    private final java.util.concurrent.locks.ReentrantReadWriteLock lock = new java.util.concurrent.locks.ReentrantReadWriteLock();
    private volatile boolean closed;

    IbvEventChannel() {
        MemorySegment p = (MemorySegment) IbvLib.call(RdmaCmLib.get().createEventChannel);
        if (p.address() == 0) throw IbvLib.failed("rdma_create_event_channel", IbvLib.errno(), "librdmacm");
        ptr = p.reinterpret(CM_CHANNEL_FD + 4);
        fd = ptr.get(JAVA_INT, CM_CHANNEL_FD);
        try {
            Fds.nonBlocking(fd, "rdma_create_event_channel");
        } catch (RuntimeException e) {
            IbvLib.call(RdmaCmLib.get().destroyEventChannel, ptr);
            throw e;
        }
    }

    @Override
    public CmId createId(PortSpace ps) {
        lock.readLock().lock();
        try (Arena a = Arena.ofConfined()) {
            if (closed) throw new VerbsException("rdma_create_id", Errno.EINVAL, "the event channel is closed");
            MemorySegment out = a.allocate(ADDRESS);
            RdmaCmLib.check("rdma_create_id", ps.cmName(), RdmaCmLib.get().createId, ptr, out, MemorySegment.NULL, ps.value);
            return adopt(out.get(ADDRESS, 0), ps);
        } finally {
            lock.readLock().unlock();
        }
    }

    private IbvCmId adopt(MemorySegment id, PortSpace ps) {
        IbvCmId made = new IbvCmId(this, id.reinterpret(CM_ID_SIZE), ps);
        ids.put(made.ptr.address(), made);
        return made;
    }

    IbvContext context(MemorySegment verbs) {
        return IbvContext.ofRdmaCm(verbs);
    }

    /**
     * rdma_get_cm_event within {@code timeout}. librdmacm handles some events itself and reads again, which on
     * this non-blocking fd ends in EAGAIN: then the wait goes on for the time left. Events of a kind this API has
     * no name for, or of an id already closed, are acknowledged and skipped.
     */
    @Override
    public CmEvent getEvent(Duration timeout) throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        while (true) {
            long left = end - System.nanoTime();
            if (!Fds.awaitReadable(fd, Duration.ofNanos(Math.max(0, left)))) return null;
            CmEvent e = readOne();
            if (e != null) return e;
            if (closed || System.nanoTime() - end >= 0) return null;
        }
    }

    /** One event, or null (nothing after all, or one skipped). */
    private CmEvent readOne() {
        lock.readLock().lock();
        try (Arena a = Arena.ofConfined()) {
            if (closed) return null;
            MemorySegment out = a.allocate(ADDRESS);
            int rc = (int) IbvLib.call(RdmaCmLib.get().getCmEvent, ptr, out);
            if (rc != 0) {
                int errno = IbvLib.errno();
                if (errno == Errno.EAGAIN.value || errno == Errno.EINTR.value) return null;
                throw IbvLib.failed("rdma_get_cm_event", errno, "event channel fd " + fd);
            }
            MemorySegment e = out.get(ADDRESS, 0).reinterpret(CM_EVENT_SIZE);
            try {
                return event(e);
            } finally {
                IbvLib.call(RdmaCmLib.get().ackCmEvent, e);
            }
        } finally {
            lock.readLock().unlock();
        }
    }

    /** The event as a value: its ids as this provider's (a CONNECT_REQUEST's new one adopted), its private data copied. */
    private CmEvent event(MemorySegment e) {
        int kind = e.get(JAVA_INT, CM_EVENT_EVENT);
        if (kind < 0 || kind >= CmEventType.values().length) return null; // newer rdma-core's (ADDRINFO_*, USER, INTERNAL)
        CmEventType type = CmEventType.values()[kind];
        int status = e.get(JAVA_INT, CM_EVENT_STATUS);
        IbvCmId listener = ids.get(e.get(ADDRESS, CM_EVENT_LISTEN_ID).address());
        MemorySegment idPtr = e.get(ADDRESS, CM_EVENT_ID);
        IbvCmId id = ids.get(idPtr.address());
        if (type == CmEventType.CONNECT_REQUEST && id == null) id = adopt(idPtr, listener != null ? listener.portSpace() : PortSpace.TCP);
        if (id == null) return null; // an id closed meanwhile: nobody to tell
        boolean ud = id != null && id.portSpace() == PortSpace.UDP;
        long param = CM_EVENT_PARAM;
        MemorySegment pdPtr = e.get(ADDRESS, param + (ud ? UP_PRIVATE_DATA : CP_PRIVATE_DATA));
        int pdLen = Byte.toUnsignedInt(e.get(JAVA_BYTE, param + (ud ? UP_PRIVATE_DATA_LEN : CP_PRIVATE_DATA_LEN)));
        byte[] privateData = pdPtr.address() == 0 ? new byte[0] : pdPtr.reinterpret(pdLen).toArray(JAVA_BYTE);
        if (ud) {
            UdParam u = null;
            if (type == CmEventType.ESTABLISHED) {
                long ah = param + UP_AH_ATTR;
                AddressVector av = new AddressVector(Gid.of(e.asSlice(ah + AH_DGID, 16).toArray(JAVA_BYTE)),
                        Byte.toUnsignedInt(e.get(JAVA_BYTE, ah + AH_SGID_INDEX)), e.get(JAVA_INT, ah + AH_FLOW_LABEL) & 0xfffff,
                        Byte.toUnsignedInt(e.get(JAVA_BYTE, ah + AH_HOP_LIMIT)), Byte.toUnsignedInt(e.get(JAVA_BYTE, ah + AH_TRAFFIC_CLASS)));
                u = new UdParam(av, e.get(JAVA_INT, param + UP_QP_NUM), e.get(JAVA_INT, param + UP_QKEY));
            }
            return new CmEvent(type, id, listener, status, privateData, null, u);
        }
        ConnParam p = null;
        if (type == CmEventType.CONNECT_REQUEST || type == CmEventType.ESTABLISHED) {
            p = new ConnParam(null, Byte.toUnsignedInt(e.get(JAVA_BYTE, param + CP_RESPONDER_RESOURCES)),
                    Byte.toUnsignedInt(e.get(JAVA_BYTE, param + CP_INITIATOR_DEPTH)), Byte.toUnsignedInt(e.get(JAVA_BYTE, param + CP_FLOW_CONTROL)),
                    Byte.toUnsignedInt(e.get(JAVA_BYTE, param + CP_RETRY_COUNT)), Byte.toUnsignedInt(e.get(JAVA_BYTE, param + CP_RNR_RETRY_COUNT)),
                    e.get(JAVA_BYTE, param + CP_SRQ) != 0, e.get(JAVA_INT, param + CP_QP_NUM));
        }
        return new CmEvent(type, id, listener, status, privateData, p, null);
    }

    /**
     * rdma_destroy_event_channel; its ids must be closed first (EBUSY), as librdmacm asks. The contexts stay:
     * librdmacm keeps one per device for the process.
     */
    @Override
    public void close() {
        lock.writeLock().lock();
        try {
            if (closed) return;
            if (!ids.isEmpty()) throw new VerbsException("rdma_destroy_event_channel", Errno.EBUSY, ids.size() + " ids are still open on it");
            closed = true;
            IbvLib.call(RdmaCmLib.get().destroyEventChannel, ptr);
        } finally {
            lock.writeLock().unlock();
        }
    }
}
