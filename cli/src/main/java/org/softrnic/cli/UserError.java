package org.softrnic.cli;

/** The command line itself is invalid (an option, a value, a combination): printed as one line, exit code 2. */
public final class UserError extends RuntimeException {
    public UserError(String message) {
        super(message);
    }
}
