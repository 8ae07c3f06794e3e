package org.softrnic.emulator.ibverbs;

import org.softrnic.verbs.AsyncEvent;
import org.softrnic.verbs.WcOpcode;
import org.softrnic.verbs.WcStatus;

/** rdma-core's enum values to the model's enums, by table (the values themselves are the enums'). */
final class IbvCodes {
    private static final WcStatus[] STATUS = new WcStatus[32];
    private static final WcOpcode[] OPCODE = new WcOpcode[256];

    static {
        for (WcStatus s : WcStatus.values()) STATUS[s.value] = s;
        for (WcOpcode o : WcOpcode.values()) if (o.value < OPCODE.length) OPCODE[o.value] = o;
    }

    private IbvCodes() {
    }

    /** IBV_WC_*; a status this rdma-core knows and the model does not (the tag-matching ones) is GENERAL_ERR. */
    static WcStatus status(int value) {
        WcStatus s = value >= 0 && value < STATUS.length ? STATUS[value] : null;
        return s != null ? s : WcStatus.GENERAL_ERR;
    }

    /** IBV_WC_* opcodes; null for one the model does not name (TSO's and tag matching's come only when asked for). */
    static WcOpcode opcode(int value) {
        return value >= 0 && value < OPCODE.length ? OPCODE[value] : null;
    }

    /** enum ibv_event_type's values are AsyncEvent.Type's order, up to IBV_EVENT_GID_CHANGE; null for later ones. */
    static AsyncEvent.Type eventType(int value) {
        AsyncEvent.Type[] all = AsyncEvent.Type.values();
        return value >= 0 && value < all.length ? all[value] : null;
    }

    /** Whether the event's element is a CQ, QP or SRQ pointer rather than a port number (ibv_get_async_event). */
    static boolean eventHasObject(int value) {
        return value >= 0 && value <= 7 || value == 14 || value == 15 || value == 16;
    }
}
