package org.softrnic.cli;

/** A problem with what the user asked for: printed as one line, exit code 2. */
public final class UserError extends RuntimeException {
    public UserError(String message) {
        super(message);
    }
}
