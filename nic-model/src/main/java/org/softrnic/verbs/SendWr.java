package org.softrnic.verbs;


/**
 * struct ibv_send_wr, mutable and reusable: posting copies it. The fields of the model's request, with
 * this API's objects where rdma-core has pointers (the address handle, the window and region of a bind).
 */
public final class SendWr {
    public long wrId;
    public SendOpcode opcode = SendOpcode.SEND;
    /** IBV_SEND_* ({@link org.softrnic.verbs.SendFlags}). */
    public int sendFlags;
    public final Sge[] sgList;
    public int numSge;
    /** Immediate data, network order as the wire carries it. */
    public int immData;
    public int invalidateRkey;
    /** RDMA and atomic operations: the remote address and rkey. */
    public long remoteAddr;
    public int rkey;
    /** Atomics: compare (CMP_AND_SWP) or add (FETCH_AND_ADD), and swap. */
    public long compareAdd;
    public long swap;
    /** UD: the address handle, remote QPN and Q_Key. */
    public AddressHandle ah;
    public int remoteQpn;
    public int remoteQkey;
    /** IBV_WR_BIND_MW (type 2 windows): the window, its new rkey, and struct ibv_mw_bind_info. */
    public MemoryWindow bindMw;
    public int bindRkey;
    public MemoryRegion bindMr;
    public long bindAddr;
    public long bindLength;
    public int bindAccess;
    /** IBV_WR_FLUSH: placement type, selectivity level, length. */
    public int flushType;
    public int flushLevel;
    public long flushLength;

    public SendWr(int maxSge) {
        sgList = new Sge[maxSge];
        for (int i = 0; i < maxSge; i++) sgList[i] = new Sge();
    }

    public SendWr() {
        this(4);
    }

    /** Sets one SGE; a convenience for the common single-buffer request. */
    public SendWr sge(long addr, int length, int lkey) {
        sgList[0].set(addr, length, lkey);
        numSge = 1;
        return this;
    }
}
