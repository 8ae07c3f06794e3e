package org.softrnic.nic.cm;

import static org.softrnic.nic.cm.Cma.EINVAL;
import static org.softrnic.nic.cm.Cma.ETIMEDOUT;
import static org.softrnic.nic.cm.Cma.RDMA_UDP_QKEY;
import static org.softrnic.nic.cm.Cma.field;
import static org.softrnic.nic.cm.Cma.privateData;

import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;
import org.softrnic.verbs.Gid;
import org.softrnic.verbs.Mtu;
import org.softrnic.verbs.VerbsException;
import org.softrnic.verbs.cm.CmEventType;
import org.softrnic.verbs.cm.ConnParam;
import org.softrnic.verbs.cm.PortSpace;
import org.softrnic.verbs.cm.UdParam;
import org.softrnic.wire.mad.CmMessage;
import org.softrnic.wire.mad.CmaHeader;

/**
 * What the CM's events do to rdma_cm ids, as cma.c's cma_ib_handler, cma_ib_req_handler and
 * cma_sidr_rep_handler (with librdmacm's ucma_process_conn_resp on the active side): a REQ makes a new id and
 * CONNECT_REQUEST, a REP moves the QP to RTS and answers RTU, a REJ, a timeout or a disconnect puts the QP in
 * ERROR and says so as RDMA_CM_EVENT_*.
 */
final class CmaEvents {
    private final Cma c;

    CmaEvents(Cma cma) {
        this.c = cma;
    }


    void ib(IbCmId ib, IbCmId listener, IbCmEvent e, MemorySegment mad) {
        CmaId id = (CmaId) ib.context;
        if (id == null && e != IbCmEvent.REQ_RECEIVED && e != IbCmEvent.SIDR_REQ_RECEIVED) return; // refused at its REQ: nobody above it
        switch (e) {
            case REQ_RECEIVED -> request(ib, (CmaId) listener.context, mad);
            case SIDR_REQ_RECEIVED -> udRequest(ib, (CmaId) listener.context, mad);
            case SIDR_REP_RECEIVED -> udReply(id, mad);
            case SIDR_REQ_ERROR -> c.emit(CmEventType.UNREACHABLE, id, ETIMEDOUT, null, null);
            case REP_RECEIVED -> established(id, mad);
            case RTU_RECEIVED -> c.emit(CmEventType.ESTABLISHED, id, 0, null, null);
            case REJ_RECEIVED -> {
                c.toError(c.live(id));
                id.state = CmaState.IDLE;
                c.emit(CmEventType.REJECTED, id, (int) CmMessage.REJ.field("reason").get(mad), privateData(CmMessage.REJ, mad), null);
            }
            case REQ_ERROR, REP_ERROR -> {
                c.toError(c.live(id));
                c.emit(CmEventType.UNREACHABLE, id, ETIMEDOUT, null, null);
            }
            case DREQ_RECEIVED, DREP_RECEIVED, DREQ_ERROR -> {
                c.toError(c.live(id));
                if (id.state == CmaState.CONNECT) { // once: cma_disable_callback(CONNECT -> DISCONNECT)
                    id.state = CmaState.DISCONNECT;
                    c.emit(CmEventType.DISCONNECTED, id, e == IbCmEvent.DREQ_ERROR ? ETIMEDOUT : 0, null, null);
                }
            }
            case TIMEWAIT_EXIT -> c.emit(CmEventType.TIMEWAIT_EXIT, id, 0, null, null);
            default -> { } // MRA_RECEIVED: the CM waits longer; nothing for the consumer
        }
    }

    /** cma_ib_req_handler: a new id for the REQ, its addresses from the CMA header, a silent MRA, CONNECT_REQUEST. */
    private void request(IbCmId ib, CmaId listener, MemorySegment mad) {
        int pdOffset = CmMessage.REQ.privateDataOffset;
        CmaHeader h = CmaHeader.read(mad, pdOffset);
        // cma_ib_check_req_qp_type: a REQ (RC) for an RDMA_PS_UDP listener is refused as a bad header is
        if (h == null || h.version() != 0 || listener == null || listener.ps != PortSpace.TCP) {
            c.cm.sendRej(ib, CmAgent.REJ_CONSUMER_DEFINED, new byte[0], new byte[0]);
            c.cm.destroy(ib); // nobody above it: the id must not outlive the refusal
            return;
        }
        CmaId id = new CmaId(listener.ps, c.random.nextInt() & 0xffffff, null);
        id.ib = ib;
        ib.context = id;
        id.local = new InetSocketAddress(h.dst(), (int) (CmMessage.REQ.field("service_id").get(mad) & 0xffff));
        id.peer = new InetSocketAddress(h.src(), h.srcPort());
        id.localGid = Gid.of(CmMessage.REQ.field("primary_remote_gid").read(mad));
        id.peerGid = Gid.of(CmMessage.REQ.field("primary_local_gid").read(mad));
        id.reqQpn = (int) field(mad, "local_qpn");
        id.reqPsn = (int) field(mad, "starting_psn");
        id.reqResponderResources = (int) field(mad, "responder_resources");
        id.reqInitiatorDepth = (int) field(mad, "initiator_depth");
        id.reqRetry = (int) field(mad, "retry_count");
        id.reqRnrRetry = (int) field(mad, "rnr_retry_count");
        id.reqAckTimeout = (int) field(mad, "primary_local_ack_timeout");
        int mtu = (int) field(mad, "path_mtu");
        // a code no MTU has is the peer's mistake: the accept's RTR refuses it (EINVAL), as ibv_modify_qp would
        id.reqMtu = mtu >= Mtu.MTU_256.value && mtu <= Mtu.MTU_4096.value ? Mtu.ofValue(mtu) : null;
        id.reqMtuCode = mtu;
        id.reqSrq = field(mad, "srq") != 0;
        id.pathMtu = id.reqMtu;
        id.state = CmaState.CONNECT;
        c.cm.sendMra(ib); // CMA_CM_MRA_SETTING: a duplicate REQ now draws an MRA
        byte[] all = privateData(CmMessage.REQ, mad);
        byte[] user = java.util.Arrays.copyOfRange(all, CmaHeader.SIZE, all.length);
        // the passive side's view: the peer's initiator depth is what it must serve, and the other way round
        ConnParam param = new ConnParam(user, id.reqInitiatorDepth, id.reqResponderResources, 0, id.reqRetry, id.reqRnrRetry,
                id.reqSrq, id.reqQpn);
        c.events.accept(new CmaEvent(CmEventType.CONNECT_REQUEST, id, listener, 0, user, param));
    }

    /**
     * cma_ib_req_handler for a SIDR_REQ: a new UD id whose addresses come from the CMA header, and CONNECT_REQUEST
     * with the user's 180 bytes; no MRA (UD has none). A header rdma_cm cannot take, or a listener gone: the id is
     * destroyed, which answers SIDR_REP status 2.
     */
    private void udRequest(IbCmId ib, CmaId listener, MemorySegment mad) {
        CmaHeader h = CmaHeader.read(mad, CmMessage.SIDR_REQ.privateDataOffset);
        if (h == null || h.version() != 0 || listener == null || listener.ps != PortSpace.UDP) {
            c.cm.destroy(ib);
            return;
        }
        CmaId id = new CmaId(listener.ps, c.random.nextInt() & 0xffffff, null);
        id.ib = ib;
        ib.context = id;
        id.local = new InetSocketAddress(h.dst(), (int) (CmMessage.SIDR_REQ.field("service_id").get(mad) & 0xffff));
        id.peer = new InetSocketAddress(h.src(), h.srcPort());
        id.peerGid = ib.peer().dgid();
        id.localGid = c.nic.gids().get(ib.peer().sgidIndex());
        id.pathMtu = c.nic.config().activeMtu();
        id.state = CmaState.CONNECT;
        byte[] all = privateData(CmMessage.SIDR_REQ, mad);
        byte[] user = java.util.Arrays.copyOfRange(all, CmaHeader.SIZE, all.length);
        c.events.accept(new CmaEvent(CmEventType.CONNECT_REQUEST, id, listener, 0, user, null));
    }

    /**
     * cma_sidr_rep_handler: status 0 is ESTABLISHED with where the peer is, its QPN and Q_Key; another status is
     * UNREACHABLE with that status; a Q_Key other than this id's is ADDR_ERROR -EINVAL (cma_set_qkey).
     */
    private void udReply(CmaId id, MemorySegment mad) {
        if (id.state != CmaState.CONNECT) return;
        int status = (int) CmMessage.SIDR_REP.field("status").get(mad);
        byte[] pd = privateData(CmMessage.SIDR_REP, mad);
        if (status != CmAgent.SIDR_SUCCESS) {
            c.emit(CmEventType.UNREACHABLE, id, status, pd, null);
            return;
        }
        int qkey = (int) CmMessage.SIDR_REP.field("qkey").get(mad);
        if (qkey != RDMA_UDP_QKEY) {
            c.emit(CmEventType.ADDR_ERROR, id, EINVAL, pd, null);
            return;
        }
        int qpn = (int) CmMessage.SIDR_REP.field("local_qpn").get(mad);
        c.events.accept(new CmaEvent(CmEventType.ESTABLISHED, id, null, 0, pd, null, new UdParam(c.route(id), qpn, qkey)));
    }

    /** The REP on the active side: RTR and RTS from it, the RTU, ESTABLISHED (ucma_process_conn_resp). */
    private void established(CmaId id, MemorySegment mad) {
        int repQpn = (int) CmMessage.REP.field("local_qpn").get(mad);
        int repPsn = (int) CmMessage.REP.field("starting_psn").get(mad);
        int repRr = (int) CmMessage.REP.field("responder_resources").get(mad);
        int repId = (int) CmMessage.REP.field("initiator_depth").get(mad);
        int repRnr = (int) CmMessage.REP.field("rnr_retry_count").get(mad);
        int timeout = CmTimeouts.ackTimeout((int) CmMessage.REP.field("target_ack_delay").get(mad), CmTimeouts.CMA_IBOE_PACKET_LIFETIME);
        c.cm.sendMra(id.ib);
        if (c.live(id) == null) {
            c.emit(CmEventType.CONNECT_ERROR, id, -1, null, null); // the QP went before its REP came
            return;
        }
        try {
            // the peer's initiator depth is what this side serves; its responder resources what this side may use
            c.toRts(id.qp, repId, id.ib.peer(), id.pathMtu, repQpn, id.seqNum, repPsn, repRr, id.param.retryCount(), repRnr,
                    id.ackTimeout >= 0 ? id.ackTimeout : timeout);
        } catch (VerbsException e) {
            // librdmacm: CONNECT_ERROR, the QP in ERROR, nothing sent (the REJ goes when the id is destroyed)
            c.toError(id.qp);
            c.emit(CmEventType.CONNECT_ERROR, id, -1, null, null); // librdmacm's rdma_seterrno: -1, errno aside
            return;
        }
        c.cm.sendRtu(id.ib, new byte[0]);
        c.emit(CmEventType.ESTABLISHED, id, 0, privateData(CmMessage.REP, mad),
                new ConnParam(null, repId, repRr, 0, id.param.retryCount(), repRnr, false, repQpn));
    }
}
