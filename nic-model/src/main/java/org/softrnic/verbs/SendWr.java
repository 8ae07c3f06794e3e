package org.softrnic.verbs;

import java.lang.foreign.MemorySegment;

/**
 * struct ibv_send_wr, mutable and reusable: posting copies it into the send queue, so the caller may change
 * it and post it again at once. The one request class of every provider and of the engine: where rdma-core
 * has pointers (the address handle, a bind's window and region) it holds this API's objects.
 */
public class SendWr {
    public long wrId;
    public SendOpcode opcode = SendOpcode.SEND;
    /** IBV_SEND_* ({@link SendFlags}). */
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
