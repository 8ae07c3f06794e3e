package org.softrnic.nic.cc;

/**
 * DCQCN's reaction point for one QP: the current rate RC, the target rate RT and the congestion estimate α, moved
 * by CNPs, timers and bytes sent, under one of the two DCQCNs (never a mix of them, as the sources warn):
 * <ul>
 * <li>{@link DcqcnParameters.Profile#PAPER} (Zhu et al., SIGCOMM 2015, as htsim implements it): each CNP cuts at
 * once with the old α, RT ← RC, RC ← RC·(1 − α/2), then α ← (1 − g)·α + g; α decays by (1 − g) each
 * {@code dce_tcp_rtt} without a CNP; an increase is fast recovery while max(T, BC) ≤ F, hyper when min(T, BC) > F
 * (RT += i·R_HAI, i = min(T, BC) − F), additive otherwise (RT += R_AI), then RC ← (RT + RC)/2.</li>
 * <li>{@link DcqcnParameters.Profile#FIRMWARE} (NVIDIA's ConnectX-4 and later, as DOC-2790 and isekai read it):
 * α is a 10-bit integer updated each {@code dce_tcp_rtt} tick from a flag the CNPs set; the rate is cut at most once
 * per {@code rate_reduce_monitor_period}, RC ← max(rpg_min_rate, RC − min(RC·α/2^rpg_gd,
 * RC·(100 − rpg_min_dec_fac)/100)); increases add a constant R_HAI when hyper.</li>
 * </ul>
 * Rates are in Mb/s; RT never passes the line rate (as HPCC and isekai cap it). The caller drives the timers: this
 * class holds the state and the rules, and names each event as the sources do.
 */
public final class Dcqcn {
    private final DcqcnParameters p;
    private final double line;
    private double rc;
    private double rt;
    /** α: in [0, 1] for the paper's profile, in [0, 1023] for the firmware's. */
    private double alpha;
    private int timerStage;
    private int byteStage;
    private long bytesSinceStage;
    private boolean cnpSinceAlphaTick;
    private boolean cnpSinceDecreaseTick;
    private boolean timerIncreased;
    private boolean byteIncreased;
    private boolean seenCnp;
    private long cnpsHandled;

    public Dcqcn(DcqcnParameters parameters, double lineRateMbps) {
        this.p = parameters;
        this.line = lineRateMbps;
        this.rc = lineRateMbps; // no slow start: a flow starts at line rate
        this.rt = lineRateMbps;
        this.alpha = paper() ? parameters.initialAlpha() / 1024.0 : parameters.initialAlpha();
    }

    /** A CNP for this QP arrived. */
    public void cnp() {
        cnpsHandled++;
        if (paper()) {
            rt = rc;
            rc = Math.max(p.rpgMinRate(), rc * (1 - alpha / 2));
            alpha = (1 - g()) * alpha + g();
            resetStages();
            return;
        }
        if (!seenCnp) {
            alpha = p.initialAlpha();
            if (p.rateToSetOnFirstCnp() != 0) {
                rc = p.rateToSetOnFirstCnp();
                rt = rc;
            }
        }
        seenCnp = true;
        cnpSinceAlphaTick = true;
        cnpSinceDecreaseTick = true;
    }

    /** The α timer, every {@code dce_tcp_rtt}: the paper's decay without CNPs, the firmware's sampled update. */
    public void alphaTick() {
        if (paper()) {
            alpha = (1 - g()) * alpha;
            return;
        }
        int a = (int) alpha;
        int gw = p.dceTcpG();
        a = cnpSinceAlphaTick ? Math.min(1023, gw * a / 1024 + (1024 - gw)) : gw * a / 1024;
        alpha = a;
        cnpSinceAlphaTick = false;
    }

    /** The firmware's decrease check, every {@code rate_reduce_monitor_period}: a cut only if a CNP came since the last. */
    public void decreaseTick() {
        if (paper() || !cnpSinceDecreaseTick) return;
        cnpSinceDecreaseTick = false;
        if (p.clampTgtRate() || byteIncreased || (p.clampTgtRateAfterTimeInc() && timerIncreased)) rt = rc;
        long r = (long) rc;
        long cut = Math.min(r * (long) alpha >> p.rpgGd(), r * (100 - p.rpgMinDecFac()) / 100);
        rc = Math.max(p.rpgMinRate(), r - cut);
        resetStages();
    }

    /**
     * The increase timer, every {@code rpg_time_reset}. The paper counts the stage and then applies its rule; the
     * firmware (DOC-2790, isekai) applies the rule with the stage so far and then counts it, so its first event after a
     * cut is fast recovery even with {@code rpg_threshold} 1.
     */
    public void increaseTick() {
        timerIncreased = true;
        if (paper()) timerStage++;
        increase();
        if (!paper()) timerStage++;
    }

    /** {@code bytes} more were sent: every {@code rpg_byte_reset} of them is an increase event. */
    public void sent(long bytes) {
        bytesSinceStage += bytes;
        long unit = p.byteResetBytes();
        while (unit > 0 && bytesSinceStage >= unit) {
            bytesSinceStage -= unit;
            byteIncreased = true;
            if (paper()) byteStage++;
            increase();
            if (!paper()) byteStage++;
        }
    }

    private void increase() {
        int f = p.rpgThreshold();
        int lo = Math.min(timerStage, byteStage);
        int hi = Math.max(timerStage, byteStage);
        if (paper()) {
            if (lo > f) rt += (lo - f) * p.rpgHaiRate();
            else if (hi > f) rt += p.rpgAiRate();
        } else {
            if (lo > f) rt += p.rpgHaiRate();
            else if (hi >= f) rt += p.rpgAiRate();
        }
        rt = Math.min(rt, line);
        rc = Math.min(line, (rt + rc) / 2);
    }

    private boolean paper() {
        return p.profile() == DcqcnParameters.Profile.PAPER;
    }

    private void resetStages() {
        timerStage = 0;
        byteStage = 0;
        bytesSinceStage = 0;
        timerIncreased = false;
        byteIncreased = false;
    }

    private double g() {
        return (1024 - p.dceTcpG()) / 1024.0;
    }

    /** RC, the rate the requester paces at, in Mb/s. */
    public double currentRate() {
        return rc;
    }

    /** RT, in Mb/s. */
    public double targetRate() {
        return rt;
    }

    /** α as the profile keeps it: [0, 1] for the paper's, [0, 1023] for the firmware's. */
    public double alpha() {
        return alpha;
    }

    /** Whether a CNP came since the last α tick (the firmware's flag; the paper's profile keeps none). */
    boolean cnpPending() {
        return cnpSinceAlphaTick;
    }

    /** CNPs this reaction point acted on (mlx5's {@code rp_cnp_handled}, per QP). */
    public long cnpsHandled() {
        return cnpsHandled;
    }
}
