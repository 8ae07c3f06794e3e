package org.softrnic.emulator.soft;

import org.softrnic.verbs.Errno;
import org.softrnic.verbs.VerbsException;
import org.softrnic.verbs.RecvWr;
import org.softrnic.verbs.AddressHandle;
import org.softrnic.verbs.MemoryRegion;
import org.softrnic.verbs.MemoryWindow;
import org.softrnic.verbs.SendWr;

/** Translates the API's work requests into the model's, on the posting thread, into a post slot. */
final class Requests {
    private Requests() {
    }

    static void copy(RecvWr from, RecvWr to) {
        checkSges("ibv_post_recv", from.numSge, Math.min(from.sgList.length, to.sgList.length));
        to.wrId = from.wrId;
        to.numSge = from.numSge;
        for (int i = 0; i < from.numSge; i++) to.sgList[i].copyFrom(from.sgList[i]);
    }

    static void copy(SendWr from, org.softrnic.nic.qp.SendWr to) {
        checkSges("ibv_post_send", from.numSge, Math.min(from.sgList.length, to.sgList.length));
        if (from.opcode == null) throw new VerbsException("ibv_post_send", Errno.EINVAL, "no opcode");
        to.wrId = from.wrId;
        to.opcode = from.opcode;
        to.sendFlags = from.sendFlags;
        to.numSge = from.numSge;
        for (int i = 0; i < from.numSge; i++) to.sgList[i].copyFrom(from.sgList[i]);
        to.immData = from.immData;
        to.invalidateRkey = from.invalidateRkey;
        to.remoteAddr = from.remoteAddr;
        to.rkey = from.rkey;
        to.compareAdd = from.compareAdd;
        to.swap = from.swap;
        to.udAh = from.ah == null ? null : ah(from.ah).av;
        to.udRemoteQpn = from.remoteQpn;
        to.udRemoteQkey = from.remoteQkey;
        to.bindMw = from.bindMw == null ? null : mw(from.bindMw).mw;
        to.bindRkey = from.bindRkey;
        to.bindMr = from.bindMr == null ? null : mr(from.bindMr).mr;
        to.bindAddr = from.bindAddr;
        to.bindLength = from.bindLength;
        to.bindAccess = from.bindAccess;
        to.flushType = from.flushType;
        to.flushLevel = from.flushLevel;
        to.flushLength = from.flushLength;
        to.regMr = null;
        to.regSegment = null;
    }

    private static void checkSges(String verb, int numSge, int max) {
        if (numSge < 0 || numSge > max) throw new VerbsException(verb, Errno.EINVAL, "num_sge " + numSge + " exceeds max_sge " + max);
    }

    static SoftAh ah(AddressHandle ah) {
        if (!(ah instanceof SoftAh a)) throw foreign("ibv_post_send", "address handle");
        a.checkOpen("ibv_post_send");
        return a;
    }

    static SoftMw mw(MemoryWindow mw) {
        if (!(mw instanceof SoftMw w)) throw foreign("ibv_post_send", "memory window");
        w.checkOpen("ibv_post_send");
        return w;
    }

    static SoftMr mr(MemoryRegion mr) {
        if (!(mr instanceof SoftMr m)) throw foreign("ibv_post_send", "memory region");
        m.checkOpen("ibv_post_send");
        return m;
    }

    private static VerbsException foreign(String verb, String what) {
        return new VerbsException(verb, Errno.EINVAL, "the " + what + " belongs to another provider");
    }
}
