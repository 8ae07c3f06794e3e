package org.softrnic.nic.transport;

import java.util.ArrayDeque;
import org.softrnic.verbs.QpState;
import org.softrnic.verbs.QpType;

/**
 * A device-wide bound on the RC PSNs in flight, over every QP, for a link that drops what it cannot hold:
 * a kernel UDP socket's receive buffer overflows when thousands of QPs each send their 128-PSN window at once,
 * and go-back-N then resends into the same full buffer until retry_cnt runs out. A NIC's transmit scheduler
 * does not overrun its wire; this one does not overrun the socket. It admits whole messages while the PSNs
 * in flight are under the bound (a WQE once started sends all its packets, within the QP's own window of 128,
 * or a half-sent message would hold room that no ACK frees), so the bound is passed by one message at most;
 * QPs that find no room wait in turn, first come first served, until ACKs free some. Nothing deadlocks: with
 * nothing in flight there is room. 0: no bound (the simulated fabric, frame ports: rxe has none).
 */
final class TxWindow {
    private int limit;
    private long inFlight;
    private final ArrayDeque<QpContext> waiting = new ArrayDeque<>();
    /** The QP {@link #serve} runs, which may pass the others waiting. */
    private QpContext serving;

    void limit(int psns) {
        this.limit = Math.max(0, psns);
    }

    int limit() {
        return limit;
    }

    /** PSNs in flight over every QP, as last counted. */
    long inFlight() {
        return inFlight;
    }

    /** Whether {@code c} may start another message now; if not, it waits its turn behind the QPs already waiting. */
    boolean allows(QpContext c) {
        if (limit == 0) return true;
        recount(c);
        // a QP gone back N sends again what it sent before, in the room it kept (see recount), without waiting
        // its turn; a message it had not sent yet waits as any other
        if (Psn.diff(c.reqPsn, c.compPsn) < c.txCounted && Psn.diff(c.reqPsn, c.txResendTo) < 0) return true;
        if (inFlight < limit && (waiting.isEmpty() || c == serving)) return true;
        if (!c.txWaiting) {
            c.txWaiting = true;
            waiting.add(c);
        }
        return false;
    }

    /** Brings the total up to date with {@code c}'s own PSNs in flight (none once it left RTS and SQD). */
    void recount(QpContext c) {
        if (limit == 0) return;
        QpState s = c.qp.state();
        int own = c.qp.type() != QpType.RC || (s != QpState.RTS && s != QpState.SQD) ? 0 : Math.max(0, Psn.diff(c.reqPsn, c.compPsn));
        // Gone back N, after a timeout or a NAK, or waiting out an RNR NAK, the QP will send it all again; and
        // after a timeout its first copies may still sit in the peer's socket. It keeps its room until an ACK
        // moves it on: were the room handed to other QPs, the queue at the peer would grow past the bound, the
        // next packets would wait longer than the ACK timeout, and more QPs would go back, each adding copies.
        if (own < c.txCounted && s == QpState.RTS && (c.retrying || c.rnrDeadline() != QpContext.NEVER)) own = c.txCounted;
        inFlight += own - c.txCounted;
        c.txCounted = own;
    }

    /** A QP that goes away takes its share with it. */
    void forget(QpContext c) {
        inFlight -= c.txCounted;
        c.txCounted = 0;
        if (c.txWaiting) {
            waiting.remove(c);
            c.txWaiting = false;
        }
    }

    /** Whether QPs wait for room that there is now: {@link #serve} would let one send. */
    boolean ready() {
        return !waiting.isEmpty() && inFlight < limit;
    }

    /** Lets waiting QPs send, in turn, while there is room. */
    void serve(Requester requester) {
        while (!waiting.isEmpty() && inFlight < limit) {
            QpContext c = waiting.poll();
            c.txWaiting = false;
            serving = c;
            requester.run(c);
            serving = null;
            recount(c);
        }
    }
}
