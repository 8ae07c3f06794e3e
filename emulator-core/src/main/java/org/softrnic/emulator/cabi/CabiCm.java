package org.softrnic.emulator.cabi;

import static org.softrnic.emulator.rdmacore.RdmaCoreLayout.*;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import org.softrnic.verbs.cm.CmEvent;
import org.softrnic.verbs.cm.CmEventType;
import org.softrnic.verbs.cm.CmId;
import org.softrnic.verbs.cm.ConnParam;
import org.softrnic.verbs.cm.EventChannel;
import org.softrnic.verbs.cm.PortSpace;
import org.softrnic.verbs.cm.RdmaCm;

/**
 * softrnic's librdmacm: event channels, ids and their events over the engine's RDMA CM on QP1, which speaks the IB CM's
 * MADs to any peer, rxe's included. A channel's fd is a {@link CabiPump}'s, as a completion channel's; an id is a
 * struct rdma_cm_id whose verbs field is the process's one context for the CM (librdmacm opens one per device), and
 * whose addresses are written as the engine learns them.
 */
final class CabiCm {
    /** An event channel: the engine's, its struct (holding the pump's fd), and the pump. */
    record Channel(EventChannel channel, MemorySegment struct, Arena arena, CabiPump<CmEvent> pump) {
        static Channel of(EventChannel channel) {
            Arena arena = Arena.ofShared();
            CabiPump<CmEvent> pump = new CabiPump<>("softrnic-cm-channel", channel::getEvent);
            MemorySegment struct = arena.allocate(8, 8).fill((byte) 0);
            struct.set(ValueLayout.JAVA_INT, CM_CHANNEL_FD, pump.fd.fd);
            return new Channel(channel, struct, arena, pump);
        }
    }

    /** An id: the engine's, its struct, and its channel. */
    record Id(CmId id, MemorySegment struct, Arena arena, Channel channel) {}

    static final ConcurrentHashMap<Integer, Channel> CHANNELS = new ConcurrentHashMap<>();
    static final ConcurrentHashMap<Long, Id> IDS = new ConcurrentHashMap<>();
    static final ConcurrentHashMap<CmId, Id> BY_ID = new ConcurrentHashMap<>();
    /** Each delivered event's memory, freed by rdma_ack_cm_event. */
    static final ConcurrentHashMap<Long, Arena> EVENTS = new ConcurrentHashMap<>();
    private static MemorySegment cmContext;

    private CabiCm() {
    }

    /** The process's context for the CM's ids, opened (and the device made) on first use. */
    static synchronized MemorySegment cmContext() {
        if (cmContext == null) cmContext = CabiDevices.ibv_open_device(MemorySegment.NULL);
        return cmContext;
    }

    private static Channel channel(MemorySegment channel) {
        Channel c = CHANNELS.get(channel.reinterpret(CM_CHANNEL_SIZE).get(ValueLayout.JAVA_INT, CM_CHANNEL_FD));
        if (c == null) throw Cabi.invalid("not an rdma_cm event channel of softrnic");
        return c;
    }

    static Id id(MemorySegment id) {
        Id i = IDS.get(id.address());
        if (i == null) throw Cabi.invalid("not an rdma_cm id of softrnic");
        return i;
    }

    static MemorySegment rdma_create_event_channel() {
        cmContext();
        Channel c = Channel.of(RdmaCm.createEventChannel("soft"));
        CHANNELS.put(c.pump().fd.fd, c);
        return c.struct();
    }

    static void rdma_destroy_event_channel(MemorySegment channel) {
        Channel c = channel(channel);
        c.channel().close();
        c.pump().close();
        CHANNELS.remove(c.pump().fd.fd);
        c.arena().close();
    }

    static int rdma_create_id(MemorySegment channel, MemorySegment idOut, MemorySegment context, int ps) {
        Channel c = channel(channel);
        PortSpace space = switch (ps) {
            case 0x0106 -> PortSpace.TCP;
            case 0x0111 -> PortSpace.UDP;
            default -> throw Cabi.error("rdma_create_id", 95, "port space 0x" + Integer.toHexString(ps) + " (softrnic takes RDMA_PS_TCP and RDMA_PS_UDP)");
        };
        Id id = wrap(c.channel().createId(space), c, context);
        idOut.reinterpret(8).set(ValueLayout.ADDRESS, 0, id.struct);
        return 0;
    }

    /** A struct rdma_cm_id for the engine's {@code cm} on {@code c}, with the program's {@code context}. */
    private static Id wrap(CmId cm, Channel c, MemorySegment context) {
        Arena arena = Arena.ofShared();
        MemorySegment s = arena.allocate(CM_ID_SIZE, 8).fill((byte) 0);
        s.set(ValueLayout.ADDRESS, CM_ID_VERBS, cmContext());
        s.set(ValueLayout.ADDRESS, CM_ID_CHANNEL, c.struct());
        s.set(ValueLayout.ADDRESS, CM_ID_CONTEXT, context);
        s.set(ValueLayout.JAVA_INT, CM_ID_PS, cm.portSpace().value);
        s.set(ValueLayout.JAVA_BYTE, CM_ID_PORT_NUM, (byte) 1);
        s.set(ValueLayout.JAVA_INT, CM_ID_QP_TYPE, cm.portSpace() == PortSpace.UDP ? 4 : 2); // IBV_QPT_UD, IBV_QPT_RC
        Id id = new Id(cm, s, arena, c);
        IDS.put(s.address(), id);
        BY_ID.put(cm, id);
        return id;
    }

    /** The id's addresses, as the engine knows them now. */
    private static void addresses(Id id) {
        CabiSockaddr.write(id.id().localAddress(), id.struct().asSlice(CM_ID_SRC, 128));
        CabiSockaddr.write(id.id().peerAddress(), id.struct().asSlice(CM_ID_DST, 128));
    }

    static int rdma_destroy_id(MemorySegment id) {
        Id i = id(id);
        i.id().close();
        IDS.remove(i.struct().address());
        BY_ID.remove(i.id());
        i.arena().close();
        return 0;
    }

    static int rdma_bind_addr(MemorySegment id, MemorySegment addr) {
        Id i = id(id);
        i.id().bind(CabiSockaddr.read(addr));
        addresses(i);
        return 0;
    }

    static int rdma_resolve_addr(MemorySegment id, MemorySegment src, MemorySegment dst, int timeoutMs) {
        Id i = id(id);
        i.id().resolveAddr(CabiSockaddr.read(src), CabiSockaddr.read(dst), Duration.ofMillis(Math.max(1, timeoutMs)));
        addresses(i);
        return 0;
    }

    static int rdma_resolve_route(MemorySegment id, int timeoutMs) {
        id(id).id().resolveRoute(Duration.ofMillis(Math.max(1, timeoutMs)));
        return 0;
    }

    static int rdma_listen(MemorySegment id, int backlog) {
        Id i = id(id);
        i.id().listen(backlog);
        addresses(i);
        return 0;
    }

    static int rdma_connect(MemorySegment id, MemorySegment param) {
        id(id).id().connect(conn(param));
        return 0;
    }

    static int rdma_accept(MemorySegment id, MemorySegment param) {
        id(id).id().accept(conn(param));
        return 0;
    }

    static int rdma_reject(MemorySegment id, MemorySegment privateData, byte length) {
        byte[] data = privateData.equals(MemorySegment.NULL) ? new byte[0]
                : privateData.reinterpret(length & 0xff).toArray(ValueLayout.JAVA_BYTE);
        id(id).id().reject(data);
        return 0;
    }

    static int rdma_disconnect(MemorySegment id) {
        id(id).id().disconnect();
        return 0;
    }

    /** struct rdma_conn_param, or librdmacm's defaults for NULL. */
    private static ConnParam conn(MemorySegment param) {
        if (param.equals(MemorySegment.NULL)) return ConnParam.DEFAULT;
        MemorySegment p = param.reinterpret(CONN_PARAM_SIZE);
        int len = p.get(ValueLayout.JAVA_BYTE, CP_PRIVATE_DATA_LEN) & 0xff;
        MemorySegment data = p.get(ValueLayout.ADDRESS, CP_PRIVATE_DATA);
        byte[] priv = len == 0 || data.equals(MemorySegment.NULL) ? new byte[0] : data.reinterpret(len).toArray(ValueLayout.JAVA_BYTE);
        return new ConnParam(priv, p.get(ValueLayout.JAVA_BYTE, CP_RESPONDER_RESOURCES) & 0xff, p.get(ValueLayout.JAVA_BYTE, CP_INITIATOR_DEPTH) & 0xff,
                p.get(ValueLayout.JAVA_BYTE, CP_FLOW_CONTROL) & 0xff, p.get(ValueLayout.JAVA_BYTE, CP_RETRY_COUNT) & 0xff,
                p.get(ValueLayout.JAVA_BYTE, CP_RNR_RETRY_COUNT) & 0xff, p.get(ValueLayout.JAVA_BYTE, CP_SRQ) != 0, p.get(ValueLayout.JAVA_INT, CP_QP_NUM));
    }

    static int rdma_create_qp(MemorySegment id, MemorySegment pd, MemorySegment initAttr) {
        Id i = id(id);
        if (pd.equals(MemorySegment.NULL)) throw Cabi.error("rdma_create_qp", 22, "no PD (softrnic's librdmacm makes none for an id)");
        MemorySegment ia = initAttr.reinterpret(QP_INIT_ATTR_SIZE);
        if (ia.get(ValueLayout.ADDRESS, QIA_SEND_CQ).equals(MemorySegment.NULL) || ia.get(ValueLayout.ADDRESS, QIA_RECV_CQ).equals(MemorySegment.NULL)) {
            throw Cabi.error("rdma_create_qp", 22, "no CQs (softrnic's librdmacm makes none for an id: create them with ibv_create_cq)");
        }
        MemorySegment qp = CabiQps.create(pd, ia, false, (p, init) -> i.id().createQp(p, init));
        i.struct().set(ValueLayout.ADDRESS, CM_ID_QP, qp);
        i.struct().set(ValueLayout.ADDRESS, CM_ID_PD, pd);
        return 0;
    }

    static void rdma_destroy_qp(MemorySegment id) {
        Id i = id(id);
        MemorySegment qp = i.struct().get(ValueLayout.ADDRESS, CM_ID_QP);
        if (!qp.equals(MemorySegment.NULL)) CabiQps.ibv_destroy_qp(qp);
        i.struct().set(ValueLayout.ADDRESS, CM_ID_QP, MemorySegment.NULL);
    }

    /** RDMA_OPTION_ID's TOS and ACK_TIMEOUT; REUSEADDR and AFONLY are accepted and change nothing here. */
    static int rdma_set_option(MemorySegment id, int level, int name, MemorySegment value, long length) {
        Id i = id(id);
        if (level != 0) throw Cabi.error("rdma_set_option", 38, "level " + level + " (softrnic takes RDMA_OPTION_ID)"); // ENOSYS
        switch (name) {
            case 0 -> i.id().setTos(value.reinterpret(1).get(ValueLayout.JAVA_BYTE, 0) & 0xff);
            case 3 -> i.id().setAckTimeout(value.reinterpret(1).get(ValueLayout.JAVA_BYTE, 0) & 0xff);
            case 1, 2 -> { }
            default -> throw Cabi.error("rdma_set_option", 38, "option " + name);
        }
        return 0;
    }

    /** Waits for the next event, as a read of the kernel's channel does; -1 and errno when the channel failed. */
    static int rdma_get_cm_event(MemorySegment channel, MemorySegment eventOut) {
        Channel c = channel(channel);
        CmEvent e;
        Id id;
        Id listen;
        while (true) {
            e = c.pump().take();
            if (e == null) throw Cabi.error("rdma_get_cm_event", 5, "the event channel's fd failed"); // EIO
            listen = e.listenId() == null ? null : BY_ID.get(e.listenId());
            id = BY_ID.get(e.id());
            // a new id comes with CONNECT_REQUEST; any other event of an id not known was for one the program destroyed
            if (id == null && e.type() == CmEventType.CONNECT_REQUEST) {
                id = wrap(e.id(), c, listen == null ? MemorySegment.NULL : listen.struct().get(ValueLayout.ADDRESS, CM_ID_CONTEXT));
            }
            if (id != null) break;
        }
        Arena arena = Arena.ofShared();
        MemorySegment ev = arena.allocate(CM_EVENT_SIZE, 8).fill((byte) 0);
        addresses(id);
        ev.set(ValueLayout.ADDRESS, CM_EVENT_ID, id.struct());
        if (listen != null) ev.set(ValueLayout.ADDRESS, CM_EVENT_LISTEN_ID, listen.struct());
        ev.set(ValueLayout.JAVA_INT, CM_EVENT_EVENT, e.type().ordinal());
        ev.set(ValueLayout.JAVA_INT, CM_EVENT_STATUS, e.status());
        byte[] priv = e.privateData();
        MemorySegment data = priv.length == 0 ? MemorySegment.NULL : arena.allocateFrom(ValueLayout.JAVA_BYTE, priv);
        MemorySegment param = ev.asSlice(CM_EVENT_PARAM, 56);
        if (e.ud() != null) {
            param.set(ValueLayout.ADDRESS, UP_PRIVATE_DATA, data);
            param.set(ValueLayout.JAVA_BYTE, UP_PRIVATE_DATA_LEN, (byte) priv.length);
            CabiResources.writeAhAttr(e.ud().ahAttr(), param.asSlice(UP_AH_ATTR, AH_ATTR_SIZE));
            param.set(ValueLayout.JAVA_INT, UP_QP_NUM, e.ud().qpNum());
            param.set(ValueLayout.JAVA_INT, UP_QKEY, e.ud().qkey());
        } else {
            param.set(ValueLayout.ADDRESS, CP_PRIVATE_DATA, data);
            param.set(ValueLayout.JAVA_BYTE, CP_PRIVATE_DATA_LEN, (byte) priv.length);
            ConnParam p = e.param();
            if (p != null) {
                param.set(ValueLayout.JAVA_BYTE, CP_RESPONDER_RESOURCES, (byte) p.responderResources());
                param.set(ValueLayout.JAVA_BYTE, CP_INITIATOR_DEPTH, (byte) p.initiatorDepth());
                param.set(ValueLayout.JAVA_BYTE, CP_FLOW_CONTROL, (byte) p.flowControl());
                param.set(ValueLayout.JAVA_BYTE, CP_RETRY_COUNT, (byte) p.retryCount());
                param.set(ValueLayout.JAVA_BYTE, CP_RNR_RETRY_COUNT, (byte) p.rnrRetryCount());
                param.set(ValueLayout.JAVA_BYTE, CP_SRQ, (byte) (p.srq() ? 1 : 0));
                param.set(ValueLayout.JAVA_INT, CP_QP_NUM, p.qpNum());
            }
        }
        EVENTS.put(ev.address(), arena);
        eventOut.reinterpret(8).set(ValueLayout.ADDRESS, 0, ev);
        return 0;
    }

    static int rdma_ack_cm_event(MemorySegment event) {
        Arena a = EVENTS.remove(event.address());
        if (a == null) throw Cabi.invalid("not an rdma_cm event of softrnic");
        a.close();
        return 0;
    }

    private static final MemorySegment[] EVENT_NAMES = new MemorySegment[CmEventType.values().length];
    private static final MemorySegment UNKNOWN = Arena.global().allocateFrom("UNKNOWN EVENT");

    static {
        for (CmEventType t : CmEventType.values()) EVENT_NAMES[t.ordinal()] = Arena.global().allocateFrom(t.toString());
    }

    static MemorySegment rdma_event_str(int event) {
        return event >= 0 && event < EVENT_NAMES.length ? EVENT_NAMES[event] : UNKNOWN;
    }
}
