package org.softrnic.emulator.cabi;

import static org.softrnic.emulator.rdmacore.RdmaCoreLayout.*;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.ConcurrentHashMap;
import org.softrnic.emulator.config.SoftRnicConfig;
import org.softrnic.emulator.soft.SoftRnic;
import org.softrnic.verbs.DeviceAttributes;
import org.softrnic.verbs.Gid;
import org.softrnic.verbs.PortAttr;
import org.softrnic.verbs.RdmaContext;

/**
 * The device verbs: one soft RNIC per process, {@code softrnic0}, with one RoCEv2 GID on its own loopback address
 * ({@code SOFTRNIC_IP}, else 127.64+ chosen from the process id, so that two processes on one host do not collide)
 * and UDP 4791 there; {@code SOFTRNIC_PCAP} names a capture of its packets. It is made when a context is first opened; listing the devices binds nothing. What the queries
 * report is what rxe reports for the same limits.
 */
final class CabiDevices {
    static final String NAME = "softrnic0";
    /** IBV_NODE_CA, IBV_TRANSPORT_IB (as rxe: RoCE is the IB transport over Ethernet), IBV_LINK_LAYER_ETHERNET. */
    private static final int NODE_CA = 1;
    private static final int TRANSPORT_IB = 0;
    private static final int LINK_LAYER_ETHERNET = 2;
    /** rxe's device_cap_flags: bad P_Key and Q_Key counters, RNR NAK generation, SRQ resize, memory windows 1 and 2B, ... */
    private static final int CAP_FLAGS = 1 << 1 | 1 << 2 | 1 << 4 | 1 << 5 | 1 << 6 | 1 << 10 | 1 << 11 | 1 << 12 | 1 << 13
            | 1 << 17 | 1 << 21 | 1 << 24;
    /** IBV_PORT_CM_SUP | IBV_PORT_IP_BASED_GIDS, as a RoCE port. */
    private static final int PORT_CAP_FLAGS = 1 << 16 | 1 << 26;

    private static final Arena ARENA = Arena.global();
    private static final MemorySegment DEVICE = device();
    /** ibv_get_device_list's answer: the one device, then NULL. */
    private static final MemorySegment LIST = list();
    private static SoftRnic rnic;
    /** An open context: the verbs one and its asynchronous events' pump. */
    record Open(RdmaContext ctx, CabiPump<org.softrnic.verbs.AsyncEvent> async) {}

    /** Each open context, by the address of its struct ibv_context. */
    static final ConcurrentHashMap<Long, Open> CONTEXTS = new ConcurrentHashMap<>();

    private CabiDevices() {
    }

    private static MemorySegment list() {
        MemorySegment l = ARENA.allocate(ValueLayout.ADDRESS, 2).fill((byte) 0);
        l.set(ValueLayout.ADDRESS, 0, DEVICE);
        return l;
    }

    private static MemorySegment device() {
        MemorySegment d = ARENA.allocate(DEVICE_SIZE, 8).fill((byte) 0);
        d.set(ValueLayout.JAVA_INT, DEVICE_NODE_TYPE, NODE_CA);
        d.set(ValueLayout.JAVA_INT, DEVICE_TRANSPORT_TYPE, TRANSPORT_IB);
        d.setString(DEVICE_NAME, NAME);
        d.setString(DEVICE_DEV_NAME, "uverbs0");
        d.setString(DEVICE_DEV_PATH, "/sys/class/infiniband_verbs/uverbs0");
        d.setString(DEVICE_IBDEV_PATH, "/sys/class/infiniband/" + NAME);
        return d;
    }

    /** The process's address: SOFTRNIC_IP, else one of 127/8 no other process has (its pid in the low 22 bits). */
    static String ip() {
        String ip = System.getenv("SOFTRNIC_IP");
        if (ip != null && !ip.isBlank()) return ip.trim();
        long pid = ProcessHandle.current().pid();
        return "127." + (64 + ((pid >> 16) & 0x3f)) + "." + ((pid >> 8) & 0xff) + "." + (pid & 0xff);
    }

    static synchronized SoftRnic rnic() {
        if (rnic == null) {
            String ip = ip();
            var config = SoftRnicConfig.builder().name(NAME).gid(ip).link("udp:" + ip + ":4791");
            String pcap = System.getenv("SOFTRNIC_PCAP"); // every packet the device sends and receives, as a capture
            if (pcap != null && !pcap.isBlank()) config.trace(pcap);
            rnic = SoftRnic.open(config.build());
        }
        return rnic;
    }

    /** Closes the process's device, whatever is left open on it (the program is exiting). */
    static synchronized void closeDevice() {
        if (rnic == null) return;
        rnic.abandon();
        rnic = null;
    }

    /** The node GUID rxe would derive: EUI-64 of a locally administered MAC made of the address. */
    static long guid() {
        byte[] a = Gid.parse(ip()).raw();
        return 0x0200_00ff_fe00_0000L | (a[12] & 0xffL) << 48 | (a[13] & 0xffL) << 16 | (a[14] & 0xffL) << 8 | (a[15] & 0xffL);
    }

    static MemorySegment ibv_get_device_list(MemorySegment num) {
        if (!num.equals(MemorySegment.NULL)) num.reinterpret(4).set(ValueLayout.JAVA_INT, 0, 1);
        return LIST;
    }

    static void ibv_free_device_list(MemorySegment list) {
        // the list is the process's one, never freed
    }

    static MemorySegment ibv_get_device_name(MemorySegment device) {
        return device.reinterpret(DEVICE_SIZE).asSlice(DEVICE_NAME);
    }

    /** __be64, as rdma-core returns it: the bytes in network order. */
    static long ibv_get_device_guid(MemorySegment device) {
        return Long.reverseBytes(guid());
    }

    static MemorySegment ibv_open_device(MemorySegment device) {
        RdmaContext ctx = rnic().open();
        // an extended context: the program's struct ibv_context is the last member of a struct verbs_context, whose
        // size and ops the inline extended verbs (ibv_create_qp_ex) look up through abi_compat
        MemorySegment v = ARENA.allocate(VCTX_SIZE, 8).fill((byte) 0);
        v.set(ValueLayout.JAVA_LONG, VCTX_SZ, VCTX_SIZE);
        v.set(ValueLayout.ADDRESS, VCTX_CREATE_QP_EX, CabiOps.CREATE_QP_EX);
        MemorySegment c = v.asSlice(VCTX_CONTEXT, CONTEXT_SIZE);
        c.set(ValueLayout.JAVA_LONG, CONTEXT_ABI_COMPAT, -1L); // __VERBS_ABI_IS_EXTENDED
        c.set(ValueLayout.ADDRESS, CONTEXT_DEVICE, DEVICE);
        c.set(ValueLayout.JAVA_INT, CONTEXT_CMD_FD, -1);
        var async = CabiAsync.start(ctx);
        c.set(ValueLayout.JAVA_INT, CONTEXT_ASYNC_FD, async.fd.fd);
        c.set(ValueLayout.JAVA_INT, CONTEXT_NUM_COMP_VECTORS, 1);
        CabiOps.install(c);
        CONTEXTS.put(c.address(), new Open(ctx, async));
        return c;
    }

    /**
     * Closes the context and, as the kernel does when a process closes its uverbs file, every object made in it that the
     * program left: QPs, address handles, regions, CQs, channels and PDs, in that order.
     */
    static int ibv_close_device(MemorySegment context) {
        Open open = CONTEXTS.remove(context.address());
        if (open == null) return 22; // EINVAL
        RdmaContext ctx = open.ctx();
        long c = context.address();
        for (var q : CabiQps.QPS.all()) if (q.struct.get(ValueLayout.JAVA_LONG, QP_CONTEXT) == c) CabiQps.ibv_destroy_qp(q.struct);
        for (var q : CabiSrqs.SRQS.all()) if (q.struct.get(ValueLayout.JAVA_LONG, SRQ_CONTEXT) == c) CabiSrqs.ibv_destroy_srq(q.struct);
        for (var a : CabiResources.AHS.all()) if (a.struct().get(ValueLayout.JAVA_LONG, AH_CONTEXT) == c) CabiResources.ibv_destroy_ah(a.struct());
        for (var m : CabiResources.MRS.all()) if (m.struct().get(ValueLayout.JAVA_LONG, MR_CONTEXT) == c) CabiResources.ibv_dereg_mr(m.struct());
        for (var q : CabiCqs.CQS.all()) if (q.struct.get(ValueLayout.JAVA_LONG, CQ_CONTEXT) == c) CabiCqs.ibv_destroy_cq(q.struct);
        for (var h : CabiCqs.CHANNELS.values()) {
            if (h.struct().get(ValueLayout.JAVA_LONG, CHANNEL_CONTEXT) == c) CabiCqs.ibv_destroy_comp_channel(h.struct());
        }
        for (var p : CabiResources.PDS.all()) if (p.struct().get(ValueLayout.JAVA_LONG, PD_CONTEXT) == c) CabiResources.ibv_dealloc_pd(p.struct());
        CabiAsync.stop(open.async());
        ctx.close();
        return 0;
    }

    static RdmaContext context(MemorySegment context) {
        Open open = CONTEXTS.get(context.address());
        if (open == null) throw new org.softrnic.verbs.VerbsException("ibv_context", org.softrnic.verbs.Errno.EINVAL, "not an open context of softrnic0");
        return open.ctx();
    }

    static int ibv_query_device(MemorySegment context, MemorySegment attr) {
        DeviceAttributes a = context(context).queryDevice();
        MemorySegment d = attr.reinterpret(DA_SIZE).fill((byte) 0);
        d.setString(DA_FW_VER, "softrnic");
        d.set(ValueLayout.JAVA_LONG, DA_NODE_GUID, Long.reverseBytes(guid()));
        d.set(ValueLayout.JAVA_LONG, DA_SYS_IMAGE_GUID, Long.reverseBytes(guid()));
        d.set(ValueLayout.JAVA_LONG, DA_MAX_MR_SIZE, a.maxMrSize());
        d.set(ValueLayout.JAVA_LONG, DA_PAGE_SIZE_CAP, 0xfffff000L);
        d.set(ValueLayout.JAVA_INT, DA_MAX_QP, a.maxQp());
        d.set(ValueLayout.JAVA_INT, DA_MAX_QP_WR, a.maxQpWr());
        d.set(ValueLayout.JAVA_INT, DA_DEVICE_CAP_FLAGS, CAP_FLAGS);
        d.set(ValueLayout.JAVA_INT, DA_MAX_SGE, a.maxSge());
        d.set(ValueLayout.JAVA_INT, DA_MAX_SGE_RD, a.maxSgeRd());
        d.set(ValueLayout.JAVA_INT, DA_MAX_CQ, a.maxCq());
        d.set(ValueLayout.JAVA_INT, DA_MAX_CQE, a.maxCqe());
        d.set(ValueLayout.JAVA_INT, DA_MAX_MR, a.maxMr());
        d.set(ValueLayout.JAVA_INT, DA_MAX_PD, a.maxPd());
        d.set(ValueLayout.JAVA_INT, DA_MAX_QP_RD_ATOM, a.maxQpRdAtom());
        d.set(ValueLayout.JAVA_INT, DA_MAX_RES_RD_ATOM, a.maxQpRdAtom() * a.maxQp());
        d.set(ValueLayout.JAVA_INT, DA_MAX_QP_INIT_RD_ATOM, a.maxQpInitRdAtom());
        d.set(ValueLayout.JAVA_INT, DA_ATOMIC_CAP, a.atomicCap().ordinal());
        d.set(ValueLayout.JAVA_INT, DA_MAX_MW, a.maxMw());
        d.set(ValueLayout.JAVA_INT, DA_MAX_AH, a.maxAh());
        d.set(ValueLayout.JAVA_INT, DA_MAX_SRQ, a.maxSrq());
        d.set(ValueLayout.JAVA_INT, DA_MAX_SRQ_WR, a.maxSrqWr());
        d.set(ValueLayout.JAVA_INT, DA_MAX_SRQ_SGE, a.maxSrqSge());
        d.set(ValueLayout.JAVA_SHORT, DA_MAX_PKEYS, (short) 64);
        d.set(ValueLayout.JAVA_BYTE, DA_LOCAL_CA_ACK_DELAY, (byte) 15);
        d.set(ValueLayout.JAVA_BYTE, DA_PHYS_PORT_CNT, (byte) 1);
        return 0;
    }

    static int ibv_query_port(MemorySegment context, byte port, MemorySegment attr) {
        if (port != 1) return 22; // EINVAL: one port, number 1
        PortAttr p = context(context).queryPort(1);
        MemorySegment a = attr.reinterpret(PA_LINK_LAYER + 1);
        a.set(ValueLayout.JAVA_INT, PA_STATE, p.state().equals("ACTIVE") ? 4 : 1);
        a.set(ValueLayout.JAVA_INT, PA_MAX_MTU, p.maxMtu().value);
        a.set(ValueLayout.JAVA_INT, PA_ACTIVE_MTU, p.activeMtu().value);
        a.set(ValueLayout.JAVA_INT, PA_GID_TBL_LEN, p.gidTblLen());
        a.set(ValueLayout.JAVA_INT, PA_PORT_CAP_FLAGS, PORT_CAP_FLAGS);
        a.set(ValueLayout.JAVA_INT, PA_MAX_MSG_SZ, 0x80000000);
        a.set(ValueLayout.JAVA_SHORT, PA_PKEY_TBL_LEN, (short) p.pkeyTblLen());
        a.set(ValueLayout.JAVA_BYTE, PA_MAX_VL_NUM, (byte) 1);
        a.set(ValueLayout.JAVA_BYTE, PA_ACTIVE_WIDTH, (byte) 1);  // IBV_WIDTH_1X
        a.set(ValueLayout.JAVA_BYTE, PA_ACTIVE_SPEED, (byte) 32); // IBV_SPEED_EDR (25 Gb/s a lane), rxe's default
        a.set(ValueLayout.JAVA_BYTE, PA_PHYS_STATE, (byte) 5);    // LinkUp
        a.set(ValueLayout.JAVA_BYTE, PA_LINK_LAYER, (byte) LINK_LAYER_ETHERNET);
        return 0;
    }

    static int ibv_query_gid(MemorySegment context, byte port, int index, MemorySegment gid) {
        if (port != 1 || index < 0 || index >= context(context).queryPort(1).gidTblLen()) return -1;
        byte[] raw;
        try {
            raw = context(context).queryGid(1, index).raw();
        } catch (org.softrnic.verbs.VerbsException empty) {
            raw = new byte[16]; // an empty entry reads as zeros, as a kernel's does
        }
        MemorySegment.copy(raw, 0, gid.reinterpret(16), ValueLayout.JAVA_BYTE, 0, 16);
        return 0;
    }

    /** IBV_GID_TYPE_SYSFS_ROCE_V2: every GID of softrnic is a RoCEv2 one. */
    static int ibv_query_gid_type(MemorySegment context, byte port, int index, MemorySegment type) {
        type.reinterpret(4).set(ValueLayout.JAVA_INT, 0, 1);
        return 0;
    }

    /** ibv_query_gid_ex: the entry, type IBV_GID_TYPE_ROCE_V2, on the loopback interface. */
    static int _ibv_query_gid_ex(MemorySegment context, int port, int index, MemorySegment entry, int flags, long size) {
        if (size < GE_SIZE) return 22;
        MemorySegment e = entry.reinterpret(GE_SIZE);
        int r = ibv_query_gid(context, (byte) port, index, e.asSlice(GE_GID, 16));
        if (r != 0) return 61; // ENODATA: no GID there
        e.set(ValueLayout.JAVA_INT, GE_GID_INDEX, index);
        e.set(ValueLayout.JAVA_INT, GE_PORT_NUM, port);
        e.set(ValueLayout.JAVA_INT, GE_GID_TYPE, 2);
        e.set(ValueLayout.JAVA_INT, GE_NDEV_IFINDEX, 1);
        return 0;
    }

    /** A kernel device's sysfs file: softrnic has none, so the caller takes its default. */
    static int ibv_read_sysfs_file(MemorySegment dir, MemorySegment file, MemorySegment buf, long size) {
        CabiErrno.set(2); // ENOENT
        return -1;
    }

    private static final MemorySegment SYSFS = ARENA.allocateFrom("/sys");

    static MemorySegment ibv_get_sysfs_path() {
        return SYSFS;
    }
}
