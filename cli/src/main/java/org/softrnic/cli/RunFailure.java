package org.softrnic.cli;

/**
 * A failure at run time, not in the command line: a peer that cannot be reached or says something wrong, a
 * file that cannot be read or written, an environment without what the command needs. One line, exit 1.
 */
public final class RunFailure extends RuntimeException {
    public RunFailure(String message) {
        super(message);
    }

    public RunFailure(String message, Throwable cause) {
        super(message, cause);
    }
}
