package org.softrnic.nic.cm;

import org.softrnic.verbs.AddressVector;

/**
 * One CM id (the kernel's cm_id_private): its state in {@link CmTable}, its communication IDs, the
 * transaction ID its answers carry, where its peer's QP1 is, and the one MAD it retransmits on its timer.
 */
public final class IbCmId {
    static final long NEVER = Long.MAX_VALUE;

    final int localId;
    CmState state = CmState.IDLE;
    IbCmHandler handler;
    /** The consumer's own object for this id (rdma_cm's id). */
    public Object context;

    int remoteId;
    long remoteGuid;
    long tid;
    long serviceId;
    /** The peer's QP1: the GIDs of the path (or of the packet that brought the REQ). */
    AddressVector av;
    int localQpn;
    int remoteQpn;
    /** The path's ACK timeout as the CM keeps it (av.timeout): timewait lasts 2^(t-8) ms. */
    int avTimeout;
    int packetLifeTime;

    /** The RTU sent, sent again for a duplicate REP. */
    byte[] answer;
    /** The MAD that goes out again when {@link #deadline} passes, up to {@link #retriesLeft} more times. */
    byte[] pending;
    long timeoutNanos;
    /** The pending MAD's own retry interval: the id's timeout, or an MRA's service timeout for this MAD only. */
    long pendingTimeoutNanos;
    int maxRetries;
    int retriesLeft;
    long deadline = NEVER;
    /** What the timer is for: a MAD's answer, or the end of timewait. */
    boolean timewait;
    /** For an id a SIDR_REQ made: its key among the requests being answered. */
    CmAgent.SidrKey sidrKey;
    /** The consumer destroyed it; it lives on only to wait out timewait. */
    boolean destroyed;

    IbCmId(int localId, IbCmHandler handler) {
        this.localId = localId;
        this.handler = handler;
    }

    public CmState state() {
        return state;
    }

    /** The Local Communication ID this id puts in its messages. */
    public int localCommId() {
        return localId;
    }

    public int remoteCommId() {
        return remoteId;
    }

    public long serviceId() {
        return serviceId;
    }

    /** The peer's QP1 address (the path), once a REQ went out or came in. */
    public AddressVector peer() {
        return av;
    }

    public int remoteQpn() {
        return remoteQpn;
    }

    @Override
    public String toString() {
        return String.format("cm id 0x%08x %s", localId, state);
    }
}
