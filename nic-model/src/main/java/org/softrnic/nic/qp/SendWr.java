package org.softrnic.nic.qp;

import org.softrnic.verbs.AddressVector;
import org.softrnic.verbs.SendOpcode;
import org.softrnic.verbs.Sge;

import org.softrnic.nic.mem.MemoryRegion;
import org.softrnic.nic.mem.MemoryWindow;

/**
 * struct ibv_send_wr, mutable and reusable: posting copies it, so the caller may change it right after.
 * {@code ud*} fields address a UD datagram (its ibv_ah, remote QPN and Q_Key).
 */
public class SendWr {
    public long wrId;
    public SendOpcode opcode = SendOpcode.SEND;
    public int sendFlags;
    public final Sge[] sgList;
    public int numSge;
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

    public SendWr(int maxSge) {
        sgList = new Sge[maxSge];
        for (int i = 0; i < maxSge; i++) sgList[i] = new Sge();
    }

    public SendWr() {
        this(4);
    }

    /** Copies every field of {@code o}, SGEs included, into this request. */
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
        udAh = o.udAh;
        udRemoteQpn = o.udRemoteQpn;
        udRemoteQkey = o.udRemoteQkey;
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

    public long totalLength() {
        long n = 0;
        for (int i = 0; i < numSge; i++) n += Integer.toUnsignedLong(sgList[i].length);
        return n;
    }
}
