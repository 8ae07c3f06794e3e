package org.softrnic.emulator.perf;

/**
 * What a run measured: wall-clock throughput of the emulator doing the work, and what the link did.
 *
 * @param bwPeakMBps    megabytes (10^6 B) per second, as perftest's MB/sec; the JSON name keeps the capital B
 * @param retryEpisodes go-back-N episodes (the counters' completer_retry_err), not packets sent again
 * @param verified null when --verify was not asked for
 * @param latency  post-to-completion times of the client's requests; null when nothing completed
 */
public record PerfResult(PerfOp op, int size, long iterations, int qps, int mtu, String link, double seconds,
                         @com.fasterxml.jackson.annotation.JsonProperty("bw_peak_MBps") double bwPeakMBps,
                         @com.fasterxml.jackson.annotation.JsonProperty("bw_average_MBps") double bwAverageMBps, double msgRateMpps, long packets,
                         long retryEpisodes, long dropped, Boolean verified, String error,
                         java.util.Map<String, Long> clientCounters, java.util.Map<String, Long> serverCounters,
                         Latency latency) {
    /** The same result failed by {@code error}, after its own error if it had one. */
    PerfResult withError(String error) {
        String both = this.error == null ? error : this.error + "; and " + error;
        return new PerfResult(op, size, iterations, qps, mtu, link, seconds, bwPeakMBps, bwAverageMBps, msgRateMpps, packets,
                retryEpisodes, dropped, verified, both, clientCounters, serverCounters, latency);
    }
}
