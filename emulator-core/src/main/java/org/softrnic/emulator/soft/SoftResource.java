package org.softrnic.emulator.soft;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.softrnic.verbs.Errno;
import org.softrnic.verbs.VerbsException;

/**
 * What every soft verbs object shares: it knows the objects it uses (its PD, CQs, SRQ, context) and the
 * objects that use it. Closing one that is still used is EBUSY and names the users; closing twice, or using
 * a closed one, is EINVAL. Creation and destruction are serialised on the device.
 */
abstract class SoftResource {
    final SoftRnic device;
    private final List<SoftResource> uses;
    private final Set<SoftResource> users = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    SoftResource(SoftRnic device, SoftResource... uses) {
        this.device = device;
        this.uses = List.of(uses);
        for (SoftResource r : uses) r.users.add(this);
    }

    /** How errors name this object, e.g. "QP 0x11". */
    abstract String describe();

    /** The rdma-core verb that destroys it, e.g. "ibv_destroy_qp". */
    abstract String destroyVerb();

    /** Destroys the model's object; runs under the device lock, after the checks. */
    abstract void destroy();

    /** The context this object was made through. */
    abstract SoftContext contextOf();

    final boolean isClosed() {
        return closed;
    }

    final void checkOpen(String verb) {
        if (closed) throw new VerbsException(verb, Errno.EINVAL, describe() + " is closed");
    }

    /** Throws for a closed object or one that is still used; callers hold the device lock. */
    final void checkClosable() {
        if (closed) throw new VerbsException(destroyVerb(), Errno.EINVAL, describe() + " is already closed");
        if (!users.isEmpty()) {
            List<String> names = users.stream().map(SoftResource::describe).sorted().toList();
            throw new VerbsException(destroyVerb(), Errno.EBUSY, describe() + " is still used by " + String.join(", ", names));
        }
    }

    public final void close() {
        synchronized (device) {
            checkClosable();
            closed = true; // first, so that posts racing with the destroy are refused on their own thread
            try {
                destroy();
            } catch (RuntimeException e) {
                closed = false;
                throw e;
            }
            for (SoftResource r : uses) r.users.remove(this);
        }
        afterClose();
    }

    /** What closing costs outside the device's lock, where other threads' verbs need not wait for it. */
    void afterClose() {
    }

    /** This object and, transitively, every open object that uses it, as errors name them. */
    final void collectOpen(java.util.Set<String> out) {
        if (closed) return;
        out.add(describe());
        for (SoftResource u : users) u.collectOpen(out);
    }

    @Override
    public String toString() {
        return describe();
    }
}
