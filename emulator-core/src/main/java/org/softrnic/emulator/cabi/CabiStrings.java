package org.softrnic.emulator.cabi;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.softrnic.verbs.WcStatus;

/** The verbs that name a value in words: each string made once, in memory that lives as long as the process. */
final class CabiStrings {
    private static final MemorySegment[] WC_STATUS = new MemorySegment[32];
    private static final MemorySegment UNKNOWN = Arena.global().allocateFrom("unknown");

    static {
        for (WcStatus s : WcStatus.values()) WC_STATUS[s.value] = Arena.global().allocateFrom(s.description);
    }

    private CabiStrings() {
    }

    /** rdma-core's words for enum ibv_event_type, ibv_node_type and ibv_port_state, in their values' order. */
    private static final MemorySegment[] EVENTS = strings("CQ error", "local work queue catastrophic error",
            "invalid request local work queue error", "local access violation work queue error", "communication established",
            "send queue drained", "path migrated", "path migration request error", "local catastrophic error", "port active",
            "port error", "LID change", "P_Key change", "SM change", "SRQ catastrophic error", "SRQ limit reached",
            "last WQE reached", "client reregistration", "GID table change");
    private static final MemorySegment[] NODES = strings("unknown", "InfiniBand channel adapter", "InfiniBand switch",
            "InfiniBand router", "iWARP NIC", "usNIC", "usNIC UDP", "unspecified");
    private static final MemorySegment[] PORT_STATES = strings("no state change (NOP)", "down", "init", "armed", "active",
            "active deferred");

    private static MemorySegment[] strings(String... words) {
        MemorySegment[] s = new MemorySegment[words.length];
        for (int i = 0; i < words.length; i++) s[i] = Arena.global().allocateFrom(words[i]);
        return s;
    }

    private static MemorySegment of(MemorySegment[] table, int value) {
        return value >= 0 && value < table.length ? table[value] : UNKNOWN;
    }

    static MemorySegment ibv_event_type_str(int event) {
        return of(EVENTS, event);
    }

    static MemorySegment ibv_node_type_str(int type) {
        return of(NODES, type);
    }

    static MemorySegment ibv_port_state_str(int state) {
        return of(PORT_STATES, state);
    }

    static MemorySegment ibv_wc_status_str(int status) {
        return status >= 0 && status < WC_STATUS.length && WC_STATUS[status] != null ? WC_STATUS[status] : UNKNOWN;
    }
}
