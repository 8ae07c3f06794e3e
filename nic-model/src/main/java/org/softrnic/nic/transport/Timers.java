package org.softrnic.nic.transport;

import org.softrnic.nic.mem.QpnTable;

/**
 * The QPs' local ACK and RNR timers, without visiting every QP on every turn of a device loop. Each QP's
 * context reports its deadlines' changes here: how many QPs have a timer armed is exact (none: no deadline,
 * at no cost), and {@link #earliest} is never later than the earliest armed deadline (arming lowers it; a
 * deadline moved later leaves it early), so the QPs are scanned only when it passes, and the scan makes it
 * exact again.
 */
final class Timers {
    private final QpnTable<QpContext> contexts;
    private long earliest = QpContext.NEVER;
    /** QPs with at least one timer armed. */
    private int armedQps;

    Timers(QpnTable<QpContext> contexts) {
        this.contexts = contexts;
    }

    /** A QP's earlier deadline went from {@code before} to {@code after}. */
    void moved(long before, long after) {
        if (before == QpContext.NEVER && after != QpContext.NEVER) armedQps++;
        else if (before != QpContext.NEVER && after == QpContext.NEVER && --armedQps == 0) earliest = QpContext.NEVER;
        if (after < earliest) earliest = after;
    }

    /** No later than the earliest armed deadline; Long.MAX_VALUE exactly when no timer is armed. */
    long nextDeadline() {
        return armedQps == 0 ? QpContext.NEVER : earliest;
    }

    /** The earliest armed deadline exactly (a scan of every QP when one is armed), which {@link #nextDeadline} then returns. */
    long exactNextDeadline() {
        earliest = QpContext.NEVER;
        if (armedQps == 0) return QpContext.NEVER;
        for (int i = 0, n = contexts.slots(); i < n; i++) {
            QpContext c = contexts.valueAt(i);
            if (c != null) earliest = Math.min(earliest, c.nextDeadline());
        }
        return earliest;
    }

    /** Fires, through {@code completer}, every timer whose deadline has passed, and finds the earliest left. */
    void run(long now, Completer completer) {
        if (armedQps == 0 || now < earliest) return;
        earliest = QpContext.NEVER;
        boolean scanned = false;
        try {
            // a timer can change other QPs' state (a CQ overflow), never the set of QPs, so one pass is enough;
            // a QP scanned before one that re-arms it has told moved()
            for (int i = 0, n = contexts.slots(); i < n; i++) {
                QpContext c = contexts.valueAt(i);
                if (c == null) continue;
                if (c.nextDeadline() <= now) completer.timers(c, now);
                earliest = Math.min(earliest, c.nextDeadline());
            }
            scanned = true;
        } finally {
            // a pass cut short by a failure saw only some QPs: the next turn scans them all again
            if (!scanned) earliest = Math.min(earliest, now);
        }
    }
}
