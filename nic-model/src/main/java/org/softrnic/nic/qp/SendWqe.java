package org.softrnic.nic.qp;

import org.softrnic.nic.mem.MemoryRegion;
import org.softrnic.nic.mem.MemoryWindow;
import org.softrnic.verbs.AddressVector;
import org.softrnic.verbs.SendFlags;
import org.softrnic.verbs.SendWr;
import org.softrnic.verbs.WcStatus;

/**
 * A posted send work request as the engine keeps it: a copy of the {@link SendWr} (inline data copied too),
 * the engine's objects its handles name (resolved when it is posted, as rxe resolves a bind's window by its
 * rkey), and the requester's and completer's progress through it. Preallocated in the send queue ring.
 */
public final class SendWqe extends SendWr {
    /** Where a WQE stands (rxe's wqe_state). */
    public enum State { POSTED, PROCESSING, PENDING, DONE, ERROR }

    /** The region each SGE lies in, resolved and checked when the requester starts the WQE. */
    public final MemoryRegion[] sgeMrs;
    /** UD: the address vector of {@link #ah}. */
    public AddressVector udAv;
    /** BIND_MW: the window and the region {@link #bindMw} and {@link #bindMr} name. */
    public MemoryWindow window;
    public MemoryRegion windowRegion;
    /** REG_MR: the fast-register region {@link #regMr} names. */
    public MemoryRegion fastReg;
    public long length;
    public final byte[] inline;
    /** The inline buffer of every WQE of a QP without inline data: one empty array, not one per WQE. */
    private static final byte[] NO_INLINE = {};
    public boolean isInline;

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
        super(maxSge);
        sgeMrs = new MemoryRegion[maxSge];
        inline = maxInline == 0 ? NO_INLINE : new byte[maxInline];
    }

    public boolean signaled(boolean allSignaled) {
        return allSignaled || (sendFlags & SendFlags.SIGNALED) != 0;
    }
}
