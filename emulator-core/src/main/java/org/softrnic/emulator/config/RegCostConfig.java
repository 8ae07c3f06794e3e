package org.softrnic.emulator.config;

/**
 * What registering memory costs, charged in wall-clock time as the kernel and the NIC charge it: {@code call_ns} for
 * each ibv_reg_mr (the system call and the NIC's command that makes the key), {@code page_ns} for each 4 KiB page it
 * pins and maps, {@code dereg_call_ns} and {@code dereg_page_ns} for ibv_dereg_mr. Zero, the default, charges nothing,
 * as a soft RNIC registers a segment at once. The ibverbs provider's real cost is what {@code softrnic regcost} measures.
 */
public record RegCostConfig(Long callNs, Long pageNs, Long deregCallNs, Long deregPageNs) {
    public static final RegCostConfig NONE = new RegCostConfig(0L, 0L, 0L, 0L);

    public RegCostConfig {
        callNs = callNs == null ? 0 : callNs;
        pageNs = pageNs == null ? 0 : pageNs;
        deregCallNs = deregCallNs == null ? 0 : deregCallNs;
        deregPageNs = deregPageNs == null ? 0 : deregPageNs;
        for (long v : new long[] {callNs, pageNs, deregCallNs, deregPageNs}) {
            if (v < 0) throw new ConfigException("reg_cost: a cost cannot be negative, not " + v);
        }
    }

    /** The cost of registering {@code pages} pages, in nanoseconds. */
    public long regNanos(long pages) {
        return callNs + pages * pageNs;
    }

    /** The cost of deregistering {@code pages} pages, in nanoseconds. */
    public long deregNanos(long pages) {
        return deregCallNs + pages * deregPageNs;
    }

    public boolean charges() {
        return callNs + pageNs + deregCallNs + deregPageNs > 0;
    }
}
