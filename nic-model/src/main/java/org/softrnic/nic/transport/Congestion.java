package org.softrnic.nic.transport;

import java.util.ArrayDeque;
import org.softrnic.nic.Counter;
import org.softrnic.nic.TxGate;
import org.softrnic.nic.cc.DcqcnParameters;
import org.softrnic.nic.cc.NotificationPoint;
import org.softrnic.nic.cc.ReactionPoint;
import org.softrnic.verbs.QpType;
import org.softrnic.wire.Opcode;
import org.softrnic.wire.frame.FrameWriter;

/**
 * The device's congestion control, as a ConnectX has it: the DCQCN notification point (CNPs for CE-marked
 * packets), the reaction point of each RC and UC QP (its rate, which the requester paces at), and the port's
 * transmit gate (a paused or busy port holds the requesters back, as a NIC's scheduler does). All off by default:
 * rxe has none of it.
 */
final class Congestion {
    private final Engine engine;
    private NotificationPoint np = NotificationPoint.OFF;
    private DcqcnParameters rp;
    private double lineRateMbps;
    private TxGate gate;
    private final ArrayDeque<QpContext> portWaiting = new ArrayDeque<>();

    Congestion(Engine engine) {
        this.engine = engine;
    }

    void notificationPoint(NotificationPoint np) {
        this.np = np == null ? NotificationPoint.OFF : np;
    }

    boolean npEnabled() {
        return np.enabled();
    }

    /** Gives each RC and UC QP, those there are and those to come, a reaction point with {@code parameters}; null: none. */
    void reactionPoint(DcqcnParameters parameters, double lineRateMbps) {
        if (parameters != null && !(lineRateMbps > 0)) throw new IllegalArgumentException("a reaction point needs a line rate");
        this.rp = parameters;
        this.lineRateMbps = lineRateMbps;
        for (int i = 0, n = engine.contexts.slots(); i < n; i++) {
            QpContext c = engine.contexts.valueAt(i);
            if (c == null) continue;
            boolean held = c.paced;
            c.rp = null;
            c.paced = false;
            added(c);
            rearm(c);
            if (held) engine.requester.run(c); // its pacing timer is gone with the old reaction point
        }
    }

    /** Whether the device's data goes out ECN-capable, ECT(0): so when it reacts to congestion, as ConnectX does. */
    boolean ecnCapable() {
        return rp != null;
    }

    void gate(TxGate gate) {
        this.gate = gate;
    }

    /** A new context: its reaction point, when the device runs them. */
    void added(QpContext c) {
        QpType t = c.qp.type();
        if (rp != null && (t == QpType.RC || t == QpType.UC)) c.rp = new ReactionPoint(rp, lineRateMbps);
    }

    /**
     * The notification point's answer to a CE-marked data packet of {@code c}'s peer: a CNP to the peer's QP, unless
     * one went less than min_time_between_cnps ago; then the mark is coalesced into it, or (the paper's rule) owed a
     * CNP when the interval ends.
     */
    void marked(QpContext c) {
        long now = engine.now();
        if (c.cnpSent && now - c.cnpSentAt < np.minTimeBetweenCnpsNanos()) {
            if (np.deferred() && !c.cnpOwed) {
                c.cnpOwed = true;
                rearm(c);
            }
            return;
        }
        sendCnp(c, now);
    }

    private void sendCnp(QpContext c, long now) {
        c.cnpSent = true;
        c.cnpSentAt = now;
        c.cnpOwed = false;
        FrameWriter w = engine.begin(c, c.template(), Opcode.CNP, c.destQpn(), 0);
        w.trafficClass(np.cnpTos());
        w.bth().ecn(false, true);
        engine.transmit(0);
        engine.counters.inc(Counter.NP_CNP_SENT);
    }

    /** A CNP for QP {@code dqpn} arrived: its reaction point acts on it, or it is counted ignored. */
    void cnp(int dqpn) {
        QpContext c = engine.context(dqpn);
        if (c == null || c.rp == null) {
            engine.counters.inc(Counter.RP_CNP_IGNORED);
            return;
        }
        c.rp.cnp(engine.now());
        engine.counters.inc(Counter.RP_CNP_HANDLED);
        rearm(c);
    }

    /**
     * Whether the requester of {@code c} must hold its next packet back: the port's gate is shut (the QP then waits
     * its turn at the port), or the reaction point's rate has not yet earned it (a timer then wakes the QP).
     */
    boolean holds(QpContext c) {
        if (gate != null && !gate.open()) {
            if (!c.portWaiting) {
                c.portWaiting = true;
                portWaiting.add(c);
            }
            return true;
        }
        if (c.rp == null) return false;
        if (engine.now() >= c.paceAt) return false;
        c.paced = true;
        rearm(c);
        return true;
    }

    /** A packet of {@code c} of {@code ipLength} bytes went out: the next one waits its time at the current rate. */
    void sent(QpContext c, int ipLength) {
        if (c.rp == null) return;
        long now = engine.now();
        int wire = ipLength + org.softrnic.wire.frame.Ethernet.FRAMING_BYTES;
        c.rp.sent(now, wire);
        double rate = c.rp.currentRate(now);
        c.paceAt = Math.max(c.paceAt, now) + wire * 8_000.0 / rate; // bits / (Mb/s) = µs
        rearm(c);
    }

    /** The port's gate opened: the QPs waiting for it send, in turn, while it stays open. */
    void portReady() {
        while (!portWaiting.isEmpty() && (gate == null || gate.open())) {
            QpContext c = portWaiting.poll();
            c.portWaiting = false;
            engine.requester.run(c);
        }
    }

    /** A QP that goes away leaves the port's line. */
    void forget(QpContext c) {
        if (c.portWaiting) {
            portWaiting.remove(c);
            c.portWaiting = false;
        }
    }

    /** The congestion-control events of {@code c} due at {@code now}. */
    void timers(QpContext c, long now) {
        if (c.cnpOwed && now - c.cnpSentAt >= np.minTimeBetweenCnpsNanos()) sendCnp(c, now);
        if (c.rp != null) c.rp.advance(now);
        if (c.paced && now >= c.paceAt) {
            c.paced = false;
            rearm(c);
            engine.requester.run(c);
        }
        rearm(c);
    }

    /** The next congestion-control event of {@code c}, for the device's timers. */
    private void rearm(QpContext c) {
        long t = QpContext.NEVER;
        if (c.cnpOwed) t = c.cnpSentAt + np.minTimeBetweenCnpsNanos();
        if (c.rp != null) t = Math.min(t, c.rp.nextEvent());
        if (c.paced) t = Math.min(t, (long) Math.ceil(c.paceAt));
        if (t != c.ccDeadline()) c.ccAt(t);
    }
}
