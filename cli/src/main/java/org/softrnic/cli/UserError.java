package org.softrnic.cli;

/** The command line itself is invalid (an option, a value, a combination): printed as one line, exit code 2. */
public final class UserError extends RuntimeException {
    public UserError(String message) {
        super(message);
    }

    /** A TCP or UDP port given on the command line must be 1..65535. */
    public static void checkPort(String option, int port) {
        if (port < 1 || port > 65535) throw new UserError(option + " must be 1..65535, not " + port);
    }

    /** A path MTU given as {@code option}: one of the five IBTA sizes. */
    public static org.softrnic.verbs.Mtu mtu(String option, int bytes) {
        try {
            return org.softrnic.verbs.Mtu.ofBytes(bytes);
        } catch (IllegalArgumentException e) {
            throw new UserError(option + " must be 256, 512, 1024, 2048 or 4096 (a path MTU), not " + bytes);
        }
    }

    /** A --timeout in seconds: 0 for none, never negative. */
    public static void checkTimeout(int seconds) {
        if (seconds < 0) throw new UserError("--timeout must be 0 (none) or more seconds, not " + seconds);
    }
}
