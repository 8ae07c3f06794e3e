package org.softrnic.verbs;

/** A verb refused its arguments or the object's state, as rdma-core would with this errno. */
public final class VerbsException extends RuntimeException {
    private final Errno errno;
    private final int errnoValue;
    private final String verb;

    public VerbsException(String verb, Errno errno, String message) {
        super(verb + ": " + message + " (" + errno + ")");
        this.verb = verb;
        this.errno = errno;
        this.errnoValue = errno.value;
    }

    /** A native verb's failure, with errno as the library set it (which {@link Errno} may not name). */
    public VerbsException(String verb, int errnoValue, String message) {
        super(verb + ": " + message + " (" + (Errno.of(errnoValue) != null ? Errno.of(errnoValue) : "errno " + errnoValue) + ")");
        this.verb = verb;
        this.errno = Errno.of(errnoValue);
        this.errnoValue = errnoValue;
    }

    /** The errno, or null for a native one that {@link Errno} does not name ({@link #errnoValue} has it). */
    public Errno errno() {
        return errno;
    }

    public int errnoValue() {
        return errnoValue;
    }

    public String verb() {
        return verb;
    }
}
