package org.softrnic.nic;

/** A verb refused its arguments or the object's state, as rdma-core would with this errno. */
public final class VerbsException extends RuntimeException {
    private final Errno errno;
    private final String verb;

    public VerbsException(String verb, Errno errno, String message) {
        super(verb + ": " + message + " (" + errno + ")");
        this.verb = verb;
        this.errno = errno;
    }

    public Errno errno() {
        return errno;
    }

    public String verb() {
        return verb;
    }
}
