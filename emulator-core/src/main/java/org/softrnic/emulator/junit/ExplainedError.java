package org.softrnic.emulator.junit;

/**
 * A test's error (an exception, not a failed assertion) with the run's explanation added to its message: thrown
 * in its place so that the report still counts it an error, with the original as its cause.
 */
final class ExplainedError extends RuntimeException {
    ExplainedError(String message, Throwable cause) {
        super(message, cause);
        setStackTrace(cause.getStackTrace());
    }

    @Override
    public String toString() {
        return getCause().getClass().getName() + ": " + getMessage();
    }
}
