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

    static MemorySegment ibv_wc_status_str(int status) {
        return status >= 0 && status < WC_STATUS.length && WC_STATUS[status] != null ? WC_STATUS[status] : UNKNOWN;
    }
}
