package org.softrnic.emulator.cabi;

import static org.softrnic.emulator.rdmacore.RdmaCoreLayout.*;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.softrnic.verbs.AddressHandle;
import org.softrnic.verbs.AddressVector;
import org.softrnic.verbs.Gid;
import org.softrnic.verbs.MemoryRegion;
import org.softrnic.verbs.ProtectionDomain;

/** Protection domains, memory regions and address handles: each a struct ibv_* in native memory over a verbs object. */
final class CabiResources {
    /** A verbs object and the struct that stands for it, freed together. */
    record Held<T>(T object, MemorySegment struct, Arena arena) {
        static <T> Held<T> of(T object, long size) {
            Arena arena = Arena.ofShared();
            return new Held<>(object, arena.allocate(size, 8).fill((byte) 0), arena);
        }
    }

    /** IBV_ACCESS_OPTIONAL_RANGE. */
    static final int OPTIONAL_ACCESS = 0x3ff00000;

    static final CabiHandles<Held<ProtectionDomain>> PDS = new CabiHandles<>();
    static final CabiHandles<Held<MemoryRegion>> MRS = new CabiHandles<>();
    static final CabiHandles<Held<AddressHandle>> AHS = new CabiHandles<>();

    private CabiResources() {
    }

    static Held<ProtectionDomain> pd(MemorySegment pd) {
        Held<ProtectionDomain> h = PDS.get(pd.reinterpret(PD_SIZE).get(ValueLayout.JAVA_INT, PD_HANDLE));
        if (h == null || h.struct().address() != pd.address()) throw Cabi.invalid("not a protection domain of softrnic0");
        return h;
    }

    static MemorySegment ibv_alloc_pd(MemorySegment context) {
        var held = Held.of(CabiDevices.context(context).allocPd(), PD_SIZE);
        held.struct().set(ValueLayout.ADDRESS, PD_CONTEXT, context);
        held.struct().set(ValueLayout.JAVA_INT, PD_HANDLE, PDS.add(held));
        return held.struct();
    }

    static int ibv_dealloc_pd(MemorySegment pd) {
        var held = pd(pd);
        held.object().close();
        PDS.remove(held.struct().get(ValueLayout.JAVA_INT, PD_HANDLE));
        held.arena().close();
        return 0;
    }

    static MemorySegment ibv_reg_mr(MemorySegment pd, MemorySegment addr, long length, int access) {
        return ibv_reg_mr_iova2(pd, addr, length, addr.address(), access);
    }

    static MemorySegment ibv_reg_mr_iova(MemorySegment pd, MemorySegment addr, long length, long iova, int access) {
        return ibv_reg_mr_iova2(pd, addr, length, iova, access);
    }

    /** The region's I/O address must be its buffer's: softrnic's regions are seen at their memory's own addresses. */
    static MemorySegment ibv_reg_mr_iova2(MemorySegment pd, MemorySegment addr, long length, long iova, int access) {
        var p = pd(pd);
        if (iova != addr.address()) throw Cabi.error("ibv_reg_mr_iova2", 95, "an I/O address other than the buffer's own is not supported");
        // IBV_ACCESS_OPTIONAL_RANGE: flags a provider may ignore (relaxed ordering), which rdma-core drops for one without them
        MemoryRegion mr = p.object().regMr(addr.reinterpret(length), access & ~OPTIONAL_ACCESS);
        var held = Held.of(mr, MR_SIZE);
        MemorySegment s = held.struct();
        s.set(ValueLayout.ADDRESS, MR_CONTEXT, p.struct().get(ValueLayout.ADDRESS, PD_CONTEXT));
        s.set(ValueLayout.ADDRESS, MR_PD, pd);
        s.set(ValueLayout.JAVA_LONG, MR_ADDR, mr.addr());
        s.set(ValueLayout.JAVA_LONG, MR_LENGTH, mr.length());
        s.set(ValueLayout.JAVA_INT, MR_LKEY, mr.lkey());
        s.set(ValueLayout.JAVA_INT, MR_RKEY, mr.rkey());
        s.set(ValueLayout.JAVA_INT, MR_HANDLE, MRS.add(held));
        return s;
    }

    static int ibv_dereg_mr(MemorySegment mr) {
        int handle = mr.reinterpret(MR_SIZE).get(ValueLayout.JAVA_INT, MR_HANDLE);
        var held = MRS.get(handle);
        if (held == null || held.struct().address() != mr.address()) return 22;
        held.object().close();
        MRS.remove(handle);
        held.arena().close();
        return 0;
    }

    static MemorySegment ibv_create_ah(MemorySegment pd, MemorySegment attr) {
        var p = pd(pd);
        MemorySegment a = attr.reinterpret(AH_ATTR_SIZE);
        if (a.get(ValueLayout.JAVA_BYTE, AH_IS_GLOBAL) == 0) throw Cabi.error("ibv_create_ah", 22, "RoCE needs a GRH: set is_global and grh.dgid");
        return ah(p, pd, p.object().createAh(vector(a)));
    }

    /** The struct ibv_ah that stands for {@code ah}, made in PD {@code p} (struct {@code pd}). */
    private static MemorySegment ah(Held<ProtectionDomain> p, MemorySegment pd, AddressHandle ah) {
        var held = Held.of(ah, AH_SIZE);
        held.struct().set(ValueLayout.ADDRESS, AH_CONTEXT, p.struct().get(ValueLayout.ADDRESS, PD_CONTEXT));
        held.struct().set(ValueLayout.ADDRESS, AH_PD, pd);
        held.struct().set(ValueLayout.JAVA_INT, AH_HANDLE, AHS.add(held));
        return held.struct();
    }

    /** ibv_create_ah_from_wc: an address handle back to the sender of the datagram {@code wc} completed, from its GRH. */
    static MemorySegment ibv_create_ah_from_wc(MemorySegment pd, MemorySegment wc, MemorySegment grh, byte port) {
        var p = pd(pd);
        return ah(p, pd, p.object().createAhFromWc(completion(wc), grh.reinterpret(40), port & 0xff));
    }

    /** ibv_init_ah_from_wc: the attributes of such a handle, into the program's struct ibv_ah_attr. */
    static int ibv_init_ah_from_wc(MemorySegment context, byte port, MemorySegment wc, MemorySegment grh, MemorySegment attr) {
        var w = completion(wc);
        if ((w.wcFlags & org.softrnic.verbs.WorkCompletion.WC_GRH) == 0) return 22;
        MemorySegment g = grh.reinterpret(40);
        Gid local = AddressVector.grhDestination(g);
        var ctx = CabiDevices.context(context);
        int n = ctx.queryPort(port & 0xff).gidTblLen();
        for (int i = 0; i < n; i++) {
            if (local.equals(ctx.queryGid(port & 0xff, i))) {
                writeAhAttr(AddressVector.fromGrh(g, i), attr.reinterpret(AH_ATTR_SIZE));
                return 0;
            }
        }
        return 2; // ENOENT: the GID the datagram was sent to is not this port's
    }

    /** The struct ibv_wc at {@code wc}: what an address handle back needs of it (its flags). */
    private static org.softrnic.verbs.WorkCompletion completion(MemorySegment wc) {
        var w = new org.softrnic.verbs.WorkCompletion();
        MemorySegment s = wc.reinterpret(WC_SIZE);
        w.wcFlags = s.get(ValueLayout.JAVA_INT, WC_WC_FLAGS);
        w.srcQp = s.get(ValueLayout.JAVA_INT, WC_SRC_QP);
        w.qpNum = s.get(ValueLayout.JAVA_INT, WC_QP_NUM);
        return w;
    }

    static int ibv_destroy_ah(MemorySegment ah) {
        int handle = ah.reinterpret(AH_SIZE).get(ValueLayout.JAVA_INT, AH_HANDLE);
        var held = AHS.get(handle);
        if (held == null) return 22;
        held.object().close();
        AHS.remove(handle);
        held.arena().close();
        return 0;
    }

    /** {@code v} as a struct ibv_ah_attr with a GRH, on port 1. */
    static void writeAhAttr(AddressVector v, MemorySegment a) {
        a.fill((byte) 0);
        MemorySegment.copy(v.dgid().raw(), 0, a, ValueLayout.JAVA_BYTE, AH_DGID, 16);
        a.set(ValueLayout.JAVA_INT, AH_FLOW_LABEL, v.flowLabel());
        a.set(ValueLayout.JAVA_BYTE, AH_SGID_INDEX, (byte) v.sgidIndex());
        a.set(ValueLayout.JAVA_BYTE, AH_HOP_LIMIT, (byte) v.hopLimit());
        a.set(ValueLayout.JAVA_BYTE, AH_TRAFFIC_CLASS, (byte) v.trafficClass());
        a.set(ValueLayout.JAVA_BYTE, AH_IS_GLOBAL, (byte) 1);
        a.set(ValueLayout.JAVA_BYTE, AH_PORT_NUM, (byte) 1);
    }

    /** A struct ibv_ah_attr's GRH as an address vector. */
    static AddressVector vector(MemorySegment a) {
        byte[] dgid = a.asSlice(AH_DGID, 16).toArray(ValueLayout.JAVA_BYTE);
        return new AddressVector(Gid.of(dgid), a.get(ValueLayout.JAVA_BYTE, AH_SGID_INDEX) & 0xff, a.get(ValueLayout.JAVA_INT, AH_FLOW_LABEL),
                a.get(ValueLayout.JAVA_BYTE, AH_HOP_LIMIT) & 0xff, a.get(ValueLayout.JAVA_BYTE, AH_TRAFFIC_CLASS) & 0xff);
    }
}
