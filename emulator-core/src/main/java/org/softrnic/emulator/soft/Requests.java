package org.softrnic.emulator.soft;

import org.softrnic.verbs.AddressHandle;
import org.softrnic.verbs.Errno;
import org.softrnic.verbs.MemoryRegion;
import org.softrnic.verbs.MemoryWindow;
import org.softrnic.verbs.RecvWr;
import org.softrnic.verbs.SendWr;
import org.softrnic.verbs.VerbsException;

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

    /**
     * Copies the request into the slot's, after the checks only this provider can make: the handles it names
     * are this provider's and still open (the engine finds its own objects by their keys).
     */
    static void copy(SendWr from, SendWr to, SoftRnic device) {
        checkSges("ibv_post_send", from.numSge, Math.min(from.sgList.length, to.sgList.length));
        if (from.opcode == null) throw new VerbsException("ibv_post_send", Errno.EINVAL, "no opcode");
        if (from.ah != null) ah(from.ah);
        if (from.bindMw != null) mw(from.bindMw, device);
        if (from.bindMr != null) mr(from.bindMr, device);
        if (from.regMr != null) throw new VerbsException("ibv_post_send", Errno.EINVAL, "REG_MR is the engine's, not ibv_post_send's");
        to.copyFrom(from);
    }

    private static void checkSges(String verb, int numSge, int max) {
        if (numSge < 0 || numSge > max) throw new VerbsException(verb, Errno.EINVAL, "num_sge " + numSge + " exceeds max_sge " + max);
    }

    static SoftAh ah(AddressHandle ah) {
        if (!(ah instanceof SoftAh a)) throw foreign("ibv_post_send", "address handle");
        a.checkOpen("ibv_post_send");
        return a;
    }

    /** This device's open window: the engine finds it by its rkey in this device's table only. */
    static SoftMw mw(MemoryWindow mw, SoftRnic device) {
        if (!(mw instanceof SoftMw w) || w.device != device) throw foreign("ibv_post_send", "memory window");
        w.checkOpen("ibv_post_send");
        return w;
    }

    /** This device's open region: the engine finds it by its lkey in this device's table only. */
    static SoftMr mr(MemoryRegion mr, SoftRnic device) {
        if (!(mr instanceof SoftMr m) || m.device != device) throw foreign("ibv_post_send", "memory region");
        m.checkOpen("ibv_post_send");
        return m;
    }

    private static VerbsException foreign(String verb, String what) {
        return new VerbsException(verb, Errno.EINVAL, "the " + what + " belongs to another device or provider");
    }
}
