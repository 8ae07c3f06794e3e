package org.softrnic.cli.explain;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.softrnic.verbs.AsyncEvent;

/** What each IBV_EVENT_* asynchronous event means (ibv_get_async_event(3), IBTA 11.6.3) and what it concerns. */
public final class EventText {
    private static final Map<AsyncEvent.Type, String> MEANING = new EnumMap<>(AsyncEvent.Type.class);

    static {
        put(AsyncEvent.Type.CQ_ERR, "affiliated with a CQ", "the CQ overran (a completion found it full) and is in error");
        put(AsyncEvent.Type.QP_FATAL, "affiliated with a QP", "an error no completion can report moved the QP to ERR");
        put(AsyncEvent.Type.QP_REQ_ERR, "affiliated with a QP",
                "invalid request local work queue error: as responder the QP got a request it cannot accept (e.g. an"
                        + " opcode it does not support or one out of sequence) and moved to ERR");
        put(AsyncEvent.Type.QP_ACCESS_ERR, "affiliated with a QP",
                "local access violation work queue error: as responder the QP got an RDMA or atomic request that failed"
                        + " its access checks and moved to ERR");
        put(AsyncEvent.Type.COMM_EST, "affiliated with a QP", "communication established: the first packet arrived at a QP in RTR");
        put(AsyncEvent.Type.SQ_DRAINED, "affiliated with a QP",
                "a QP in SQD has nothing in flight any more (only when RTS -> SQD set IBV_QP_EN_SQD_ASYNC_NOTIFY)");
        put(AsyncEvent.Type.PATH_MIG, "affiliated with a QP", "the connection migrated to its alternate path");
        put(AsyncEvent.Type.PATH_MIG_ERR, "affiliated with a QP", "the connection could not migrate to its alternate path");
        put(AsyncEvent.Type.DEVICE_FATAL, "unaffiliated: the device",
                "the device hit an error it cannot recover from; every resource on it must be destroyed");
        put(AsyncEvent.Type.PORT_ACTIVE, "unaffiliated: a port", "the port's link became active");
        put(AsyncEvent.Type.PORT_ERR, "unaffiliated: a port", "the port's link went down");
        put(AsyncEvent.Type.LID_CHANGE, "unaffiliated: a port", "the port's LID changed (InfiniBand; RoCE has no LIDs)");
        put(AsyncEvent.Type.PKEY_CHANGE, "unaffiliated: a port", "the port's P_Key table changed");
        put(AsyncEvent.Type.SM_CHANGE, "unaffiliated: a port", "a new subnet manager took over (InfiniBand; RoCE has no SM)");
        put(AsyncEvent.Type.SRQ_ERR, "affiliated with an SRQ", "an error left the SRQ unusable");
        put(AsyncEvent.Type.SRQ_LIMIT_REACHED, "affiliated with an SRQ",
                "the SRQ's posted receives fell below the srq_limit set with ibv_modify_srq; the limit is then disarmed");
        put(AsyncEvent.Type.QP_LAST_WQE_REACHED, "affiliated with a QP",
                "a QP attached to an SRQ went to ERR and will take no more receives from the SRQ");
        put(AsyncEvent.Type.CLIENT_REREGISTER, "unaffiliated: a port",
                "the subnet manager asks clients to register their subscriptions again (InfiniBand)");
        put(AsyncEvent.Type.GID_CHANGE, "unaffiliated: a port", "the port's GID table changed (on RoCE: an IP address came or went)");
    }

    private EventText() {
    }

    private static void put(AsyncEvent.Type t, String affiliation, String meaning) {
        MEANING.put(t, affiliation + ": " + meaning);
    }

    /** "IBV_EVENT_COMM_EST" or "COMM_EST", or null. */
    static List<String> of(String u) {
        String name = u.startsWith("IBV_EVENT_") ? u.substring(10) : u;
        AsyncEvent.Type t;
        try {
            t = AsyncEvent.Type.valueOf(name);
        } catch (IllegalArgumentException e) {
            return null;
        }
        return List.of(t.ibvName() + ": " + meaning(t),
                "  fields: struct ibv_async_event: event_type, and element.qp, .cq, .srq or .port_num for what it concerns;"
                        + " every event must be acknowledged with ibv_ack_async_event");
    }

    /** One line on what the event says and what it concerns. */
    public static String meaning(AsyncEvent.Type t) {
        return MEANING.getOrDefault(t, "an asynchronous event of the device");
    }
}
