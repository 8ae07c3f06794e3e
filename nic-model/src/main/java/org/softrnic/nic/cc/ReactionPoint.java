package org.softrnic.nic.cc;

/**
 * A QP's DCQCN reaction point in time: {@link Dcqcn}'s rules driven by its three timers, as the firmware (and the
 * paper) run them, from the device's clock in nanoseconds.
 * <ul>
 * <li>The α timer ticks every {@code dce_tcp_rtt}. Its ticks change nothing but α, which only a cut reads, so they
 * are applied when something reads it (a cut, a CNP, a look), never as events of their own: a thousand QPs cost
 * no timer wake-up a microsecond.</li>
 * <li>The firmware's decrease check runs every {@code rate_reduce_monitor_period} from the first CNP, and cuts only
 * if a CNP came since the last check: it is an event only when one did.</li>
 * <li>The increase timer runs every {@code rpg_time_reset} from the last cut; it stops once RC and RT are at the
 * line rate, where an increase changes nothing.</li>
 * </ul>
 * The paper's profile restarts both timers on each CNP, which cuts at once. The caller asks {@link #nextEvent}
 * when to call {@link #advance} again.
 */
public final class ReactionPoint {
    private static final long NEVER = Long.MAX_VALUE;

    private final Dcqcn rules;
    private final double line;
    private final boolean paper;
    private final long alphaPeriod;
    private final long decreasePeriod;
    private final long increasePeriod;
    /** The α timer's start, and how many of its ticks are applied; NEVER before the first CNP. */
    private long alphaStart = NEVER;
    private long alphaTicks;
    /** The first CNP's time, which the decrease checks count from; the next check that will cut, or NEVER. */
    private long decreaseStart = NEVER;
    private long nextDecrease = NEVER;
    /** The increase timer's start and ticks; NEVER while it is stopped. */
    private long increaseStart = NEVER;
    private long increaseTicks;

    public ReactionPoint(DcqcnParameters parameters, double lineRateMbps) {
        this.rules = new Dcqcn(parameters, lineRateMbps);
        this.line = lineRateMbps;
        this.paper = parameters.profile() == DcqcnParameters.Profile.PAPER;
        this.alphaPeriod = Math.max(1, parameters.dceTcpRttMicros() * 1_000);
        this.decreasePeriod = Math.max(1, parameters.rateReduceMonitorPeriodMicros() * 1_000);
        this.increasePeriod = Math.max(1, parameters.rpgTimeResetMicros() * 1_000);
    }

    /** A CNP for the QP arrived at {@code now}. */
    public void cnp(long now) {
        advance(now);
        if (paper) {
            rules.cnp(); // cuts with the old α, then moves α
            alphaStart = now; // both timers start again
            alphaTicks = 0;
            restartIncrease(now);
            return;
        }
        if (alphaStart == NEVER) {
            alphaStart = now;
            decreaseStart = now;
        }
        rules.cnp();
        if (nextDecrease == NEVER) {
            long k = (now - decreaseStart) / decreasePeriod + 1;
            nextDecrease = decreaseStart + k * decreasePeriod;
        }
    }

    /** {@code bytes} went on the wire at {@code now}: the byte counter's increase events. */
    public void sent(long now, long bytes) {
        advance(now);
        rules.sent(bytes);
    }

    /** Applies every timer event due by {@code now}, in time order. */
    public void advance(long now) {
        while (true) {
            long next = Math.min(nextDecrease, nextIncrease());
            if (next > now) break;
            catchUpAlpha(next);
            if (next == nextDecrease) {
                nextDecrease = NEVER;
                rules.decreaseTick(); // a CNP came since the last check, or it would not be due
                restartIncrease(next);
            } else {
                increaseTicks++;
                rules.increaseTick();
                if (!below()) increaseStart = NEVER; // at the line rate an increase changes nothing
            }
        }
        catchUpAlpha(now);
    }

    /** When {@link #advance} has something to do next; Long.MAX_VALUE when nothing is due. */
    public long nextEvent() {
        return Math.min(nextDecrease, nextIncrease());
    }

    private long nextIncrease() {
        return increaseStart == NEVER ? NEVER : increaseStart + (increaseTicks + 1) * increasePeriod;
    }

    private void restartIncrease(long at) {
        increaseStart = at;
        increaseTicks = 0;
    }

    private boolean below() {
        return rules.currentRate() < line || rules.targetRate() < line;
    }

    /**
     * Applies the α ticks due by {@code t}. The paper's α decays each K without a CNP; the firmware's is sampled
     * each tick. Both stop changing at 0 without CNPs, where the loop ends however long the QP was quiet.
     */
    private void catchUpAlpha(long t) {
        if (alphaStart == NEVER || t < alphaStart) return;
        long due = (t - alphaStart) / alphaPeriod;
        while (alphaTicks < due) {
            alphaTicks++;
            rules.alphaTick();
            if (rules.alpha() == 0 && !rules.cnpPending()) {
                alphaTicks = due;
                break;
            }
        }
    }

    /** RC in Mb/s at {@code now}: the rate the requester paces at. */
    public double currentRate(long now) {
        advance(now);
        return rules.currentRate();
    }

    /** What a look at the reaction point shows at {@code now}. */
    public RateState state(long now) {
        advance(now);
        return new RateState(rules.currentRate(), rules.targetRate(), rules.alpha(), rules.cnpsHandled());
    }

    /** The rate state of one QP: RC and RT in Mb/s, α as the profile keeps it, and the CNPs it acted on. */
    public record RateState(double currentRateMbps, double targetRateMbps, double alpha, long cnpsHandled) { }
}
