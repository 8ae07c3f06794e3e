package org.softrnic.emulator.perf;

import java.util.List;

/**
 * What one side tells the other to connect, as perftest exchanges it out of band: its GID and RoCE UDP
 * port (0: the standard one), and per QP the QPN and the buffer's address and rkey.
 */
public record PerfEndpoint(String gid, int port, List<Integer> qpns, List<Long> addrs, List<Integer> rkeys) {
}
