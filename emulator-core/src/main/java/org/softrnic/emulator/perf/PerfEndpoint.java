package org.softrnic.emulator.perf;

import java.util.List;

/**
 * What one side tells the other to connect, as perftest exchanges it out of band: its GID, and per QP the
 * QPN and the buffer's address and rkey.
 */
public record PerfEndpoint(String gid, List<Integer> qpns, List<Long> addrs, List<Integer> rkeys) {
}
