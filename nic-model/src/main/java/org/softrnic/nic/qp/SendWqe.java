package org.softrnic.nic.qp;

import org.softrnic.nic.cq.WcStatus;
import org.softrnic.nic.mem.MemoryRegion;
import org.softrnic.nic.mem.MemoryWindow;

/**
 * A posted send work request as the engine keeps it: a copy of the {@link SendWr} (inline data copied too)
 * plus the requester's and completer's progress through it. Preallocated in the send queue ring.
 */
public final class SendWqe {
    /** Where a WQE stands (rxe's wqe_state). */
    public enum State { POSTED, PROCESSING, PENDING, DONE, ERROR }

    public long wrId;
    public SendOpcode opcode;
    public int flags;
    public final Sge[] sges;
    /** The region each SGE lies in, resolved and checked when the requester starts the WQE. */
    public final MemoryRegion[] sgeMrs;
    public int numSge;
    public long length;
    public final byte[] inline;
    public boolean isInline;
    public int immData;
    public int invalidateRkey;
    public long remoteAddr;
    public int rkey;
    public long compareAdd;
    public long swap;
    public AddressVector udAh;
    public int udRemoteQpn;
    public int udRemoteQkey;
    /** IBV_WR_BIND_MW: the window, its new rkey (type 2), and struct ibv_mw_bind_info. */
    public MemoryWindow bindMw;
    public int bindRkey;
    public MemoryRegion bindMr;
    public long bindAddr;
    public long bindLength;
    public int bindAccess;
    /** IBV_WR_FLUSH: placement type (1 global visibility, 2 persistence), selectivity level, length. */
    public int flushType;
    public int flushLevel;
    public long flushLength;
    /** REG_MR: the fast-register region, the memory it maps, its I/O virtual address, access and new key. */
    public MemoryRegion regMr;
    public java.lang.foreign.MemorySegment regSegment;
    public long regIova;
    public int regAccess;
    public int regKey;

    public State state;
    /** PSN of the first and last packet of this message. */
    public int firstPsn;
    public int lastPsn;
    /** Bytes already put into packets by the requester. */
    public long sent;
    /** Bytes of a READ response already placed, by the completer. */
    public long received;
    public WcStatus status;

    public SendWqe(int maxSge, int maxInline) {
        sges = new Sge[maxSge];
        for (int i = 0; i < maxSge; i++) sges[i] = new Sge();
        sgeMrs = new MemoryRegion[maxSge];
        inline = new byte[maxInline];
    }

    public boolean signaled(boolean allSignaled) {
        return allSignaled || (flags & SendFlags.SIGNALED) != 0;
    }
}
