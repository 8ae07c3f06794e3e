package org.softrnic.emulator.soft;

import org.softrnic.verbs.AddressHandle;
import org.softrnic.verbs.Errno;
import org.softrnic.verbs.MemoryRegion;
import org.softrnic.verbs.MemoryWindow;
import org.softrnic.verbs.SendWr;
import org.softrnic.verbs.VerbsException;

/** The checks of a work request that only this provider can make, on the posting thread. */
final class Requests {
    private Requests() {
    }

    /**
     * The checks only this provider can make: the handles the request names are this provider's and still open
     * (the engine finds its own objects by their keys).
     */
    static void check(SendWr wr, SoftRnic device) {
        if (wr.opcode == null) throw new VerbsException("ibv_post_send", Errno.EINVAL, "no opcode");
        if (wr.ah != null) ah(wr.ah);
        if (wr.bindMw != null) mw(wr.bindMw, device);
        if (wr.bindMr != null) mr(wr.bindMr, device);
        if (wr.regMr != null) throw new VerbsException("ibv_post_send", Errno.EINVAL, "REG_MR is the engine's, not ibv_post_send's");
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
