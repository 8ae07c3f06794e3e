package org.softrnic.cli.perftest;

import org.softrnic.verbs.WorkCompletion;

/** A test that cannot go on, with perftest's own words for it (the command prints them and exits 1). */
final class PerftestException extends Exception {
    PerftestException(String message) {
        super(message);
    }

    /** What perftest prints for a completion in error. */
    static PerftestException completion(String side, WorkCompletion wc) {
        return new PerftestException(String.format(" Completion with error at %s%n Failed status %d: wr_id %d syndrom 0x%x%s",
                side, wc.status.value, (int) wc.wrId, wc.vendorErr, org.softrnic.cli.oob.RetryNote.after(wc.status)));
    }
}
