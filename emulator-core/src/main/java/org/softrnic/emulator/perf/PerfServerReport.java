package org.softrnic.emulator.perf;

import java.util.Map;

/** What a two-process run's server saw: the run, its client, how many requests completed, and the check. */
public record PerfServerReport(PerfOptions run, String client, long completed, Boolean verified, Map<String, Long> counters) {
}
