package org.softrnic.emulator.perf;

import org.softrnic.verbs.Mtu;

/**
 * What to measure, over which link ({@code inproc} or {@code udp[:ADDR[:PORT]]}), and on UDP how the
 * devices progress ({@code inline}: the measuring thread drives them, as perftest's one thread polls;
 * {@code thread}: each on its own event loop). {@code txDepth} is how many work requests each QP keeps outstanding (perftest's -t,
 * 128 by default). {@code trace}, when not null, is a pcap file for every packet of this process's client device
 * (which sees both directions).
 */
public record PerfOptions(PerfOp op, String link, int size, int iters, int qps, Mtu mtu, double loss, long seed,
                          boolean verify, int txDepth, String progress, String trace, String registration,
                          org.softrnic.emulator.config.RegCostConfig regCost) {
    /** Registration once for the run, the default, as perftest registers. */
    public PerfOptions(PerfOp op, String link, int size, int iters, int qps, Mtu mtu, double loss, long seed,
                       boolean verify, int txDepth, String progress, String trace) {
        this(op, link, size, iters, qps, mtu, loss, seed, verify, txDepth, progress, trace, "once", null);
    }

    /**
     * These options with the client's buffers registered {@code registration}: {@code once} (perftest's way),
     * {@code per-message} (registered at each post, deregistered at its completion) or {@code cached} (from a
     * registration cache), the soft RNICs charging {@code regCost} (null: nothing).
     */
    public PerfOptions withRegistration(String registration, org.softrnic.emulator.config.RegCostConfig regCost) {
        return new PerfOptions(op, link, size, iters, qps, mtu, loss, seed, verify, txDepth, progress, trace, registration, regCost);
    }

    PerMessageRegistration.Mode registrationMode() {
        return switch (registration) {
            case "per-message" -> PerMessageRegistration.Mode.PER_MESSAGE;
            case "cached" -> PerMessageRegistration.Mode.CACHED;
            default -> PerMessageRegistration.Mode.ONCE;
        };
    }

    public PerfOptions(PerfOp op, String link, int size, int iters, int qps, Mtu mtu, double loss, long seed,
                       boolean verify, int txDepth) {
        this(op, link, size, iters, qps, mtu, loss, seed, verify, txDepth, "inline", null);
    }

    public PerfOptions(PerfOp op, String link, int size, int iters, int qps, Mtu mtu, double loss, long seed,
                       boolean verify, int txDepth, String progress) {
        this(op, link, size, iters, qps, mtu, loss, seed, verify, txDepth, progress, null);
    }

    /** The soft RNIC's max_cqe: each side's one CQ must hold a completion for every request outstanding. */
    public static final int MAX_CQE = 32768;
    /** QP pairs a run may open: rxe's max_qp is 0x10000 per device; a run is two devices' worth of 16 384 each. */
    public static final int MAX_QPS = 16384;
    /** Registered memory per side, at most: a client cannot make a server allocate without limit. */
    public static final long MAX_REGISTERED = 4L << 30;

    public PerfOptions {
        if (registration == null) registration = "once";
        if (!registration.equals("once") && !registration.equals("per-message") && !registration.equals("cached")) {
            throw new IllegalArgumentException("registration must be once, per-message or cached, not " + registration);
        }
        if (regCost == null) regCost = org.softrnic.emulator.config.RegCostConfig.NONE;
        if (progress == null) progress = "inline";
        if (!progress.equals("inline") && !progress.equals("thread")) {
            throw new IllegalArgumentException("--progress must be inline or thread, not " + progress);
        }
        if (link == null) link = "inproc";
        if (op == PerfOp.ATOMIC) size = 8;
        if (size < 0 || size > (1 << 30)) throw new IllegalArgumentException("--size must be 0..1 GiB, not " + size);
        if (iters < 1) throw new IllegalArgumentException("--iters must be at least 1, not " + iters);
        if (qps < 1 || qps > MAX_QPS) throw new IllegalArgumentException("--qps must be 1.." + MAX_QPS + ", not " + qps);
        if (!(loss >= 0 && loss < 1)) throw new IllegalArgumentException("--loss must lie in [0, 1), not " + loss);
        if (txDepth < 1 || txDepth > 1024) throw new IllegalArgumentException("--tx-depth must be 1..1024, not " + txDepth);
        if ((long) qps * size > MAX_REGISTERED) {
            throw new IllegalArgumentException("--size x --qps must be at most " + (MAX_REGISTERED >> 30) + " GiB of registered memory"
                    + " per side, not " + size + " x " + qps);
        }
        if ((long) qps * txDepth > MAX_CQE) {
            throw new IllegalArgumentException("--qps x --tx-depth must be at most " + MAX_CQE + " (one CQ holds every completion), not "
                    + qps + " x " + txDepth);
        }
        if (op == PerfOp.SEND && size > 0 && size > Integer.MAX_VALUE / 2) throw new IllegalArgumentException("--size too large");
    }

    /** perftest's receive depth for SEND tests (DEF_RX_SEND): receives kept posted ahead, whatever the tx depth. */
    static final int DEF_RX_SEND = 512;

    /**
     * Receives each QP keeps posted ahead: perftest's 512 (at most the run's iterations), so that a SEND never
     * finds its receive missing while the responder's owner is between polls, which an RNR NAK would show; never
     * fewer than {@link #txDepth}, and within one CQ's {@link #MAX_CQE} over all QPs.
     */
    public int rxDepth() {
        return Math.max(Math.min(txDepth, iters), Math.min(Math.min(DEF_RX_SEND, iters), MAX_CQE / qps));
    }
}
