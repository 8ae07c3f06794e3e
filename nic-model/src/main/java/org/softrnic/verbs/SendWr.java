package org.softrnic.verbs;

import java.lang.foreign.MemorySegment;

/**
 * struct ibv_send_wr, mutable and reusable: posting copies it into the send queue, so the caller may change
 * it and post it again at once. The one request class of every provider and of the engine: where rdma-core
 * has pointers (the address handle, a bind's window and region) it holds this API's objects.
 */
public class SendWr {
    /** The caller's tag, returned in the completion's {@link WorkCompletion#wrId} (wr_id). */
    public long wrId;
    /** What the request does (opcode, IBV_WR_*); SEND unless set. */
    public SendOpcode opcode = SendOpcode.SEND;
    /** IBV_SEND_* ({@link SendFlags}). */
    public int sendFlags;
    /** The gather list: the first {@link #numSge} entries are the bytes sent (or, for a READ, where they land). */
    public final Sge[] sgList;
    /** How many of {@link #sgList}'s entries the request uses (num_sge). */
    public int numSge;
    /** Immediate data (the *_WITH_IMM opcodes), network order as the wire carries it. */
    public int immData;
    /** SEND_WITH_INV: the rkey the receiver's device invalidates (invalidate_rkey). */
    public int invalidateRkey;
    /** RDMA and atomic operations: the remote address and rkey. */
    public long remoteAddr;
    public int rkey;
    /** Atomics: compare (CMP_AND_SWP) or add (FETCH_AND_ADD), and swap. */
    public long compareAdd;
    public long swap;
    /** UD: the address handle, remote QPN and Q_Key (wr.ud). */
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
    /** IBV_WR_FLUSH: placement type (1 global visibility, 2 persistence), selectivity level, length. */
    public int flushType;
    public int flushLevel;
    public long flushLength;
    /**
     * REG_MR (the kernel's IB_WR_REG_MR; the soft RNIC's engine only): the fast-register region, the memory
     * it maps, its I/O virtual address, access and new key.
     */
    public MemoryRegion regMr;
    public MemorySegment regSegment;
    public long regIova;
    public int regAccess;
    public int regKey;

    /**
     * A request with room for {@code maxSge} gather entries, all allocated now (none at post).
     *
     * @param maxSge the capacity of {@link #sgList}; posting more than the QP's {@link QpCaps#maxSendSge} is EINVAL
     */
    public SendWr(int maxSge) {
        sgList = new Sge[maxSge];
        for (int i = 0; i < maxSge; i++) sgList[i] = new Sge();
    }

    /** A request with room for 4 gather entries, as {@link QpCaps#of(int, int)} allows. */
    public SendWr() {
        this(4);
    }

    /**
     * Makes one SGE the request's whole gather list: the common single-buffer request.
     *
     * @param addr   the buffer's virtual address, inside a region registered with {@code lkey}
     * @param length the buffer's length in bytes
     * @param lkey   the region's local key ({@link MemoryRegion#lkey()})
     * @return this request
     */
    public SendWr sge(long addr, int length, int lkey) {
        sgList[0].set(addr, length, lkey);
        numSge = 1;
        return this;
    }

    /** Copies every field of {@code o}, its first {@code o.numSge} SGEs included, into this request. */
    public void copyFrom(SendWr o) {
        wrId = o.wrId;
        opcode = o.opcode;
        sendFlags = o.sendFlags;
        numSge = o.numSge;
        for (int i = 0; i < o.numSge; i++) sgList[i].copyFrom(o.sgList[i]);
        immData = o.immData;
        invalidateRkey = o.invalidateRkey;
        remoteAddr = o.remoteAddr;
        rkey = o.rkey;
        compareAdd = o.compareAdd;
        swap = o.swap;
        ah = o.ah;
        remoteQpn = o.remoteQpn;
        remoteQkey = o.remoteQkey;
        bindMw = o.bindMw;
        bindRkey = o.bindRkey;
        bindMr = o.bindMr;
        bindAddr = o.bindAddr;
        bindLength = o.bindLength;
        bindAccess = o.bindAccess;
        flushType = o.flushType;
        flushLevel = o.flushLevel;
        flushLength = o.flushLength;
        regMr = o.regMr;
        regSegment = o.regSegment;
        regIova = o.regIova;
        regAccess = o.regAccess;
        regKey = o.regKey;
    }

    /** Drops the references to other objects, so that a reused request keeps none alive. */
    public void clearHandles() {
        ah = null;
        bindMw = null;
        bindMr = null;
        regMr = null;
        regSegment = null;
    }

    /** The message length: the sum of the SGEs' lengths. */
    public long totalLength() {
        long n = 0;
        for (int i = 0; i < numSge; i++) n += Integer.toUnsignedLong(sgList[i].length);
        return n;
    }
}
