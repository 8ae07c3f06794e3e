package org.softrnic.emulator.ibverbs;

import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.softrnic.verbs.Errno;
import org.softrnic.verbs.VerbsException;

/**
 * A native verbs object: its pointer, the objects it uses and those that use it. Closing one still used is
 * EBUSY and names the users, before anything reaches the library; closing twice, or using a closed one, is
 * EINVAL. The pointer is only handed to native code under the object's own monitor after a check that it is
 * open, and close takes that monitor too, so no call ever gets a freed pointer.
 */
abstract class IbvResource implements AutoCloseable {
    final MemorySegment ptr;
    private final List<IbvResource> uses;
    private final Set<IbvResource> users = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    IbvResource(MemorySegment ptr, IbvResource... uses) {
        this.ptr = ptr;
        this.uses = List.of(uses);
        for (IbvResource r : uses) r.users.add(this);
    }

    /** {@code api} as this provider's object of {@code type}; EINVAL for another provider's (or null). */
    static <T extends IbvResource> T own(Object api, Class<T> type, String verb) {
        if (type.isInstance(api)) return type.cast(api);
        throw new VerbsException(verb, Errno.EINVAL, "not an object of the ibverbs provider: " + api);
    }

    /**
     * Runs {@code call} holding the monitors of {@code used} (in the order given), each checked open: an
     * object passed to native code cannot be closed under it, and a user being added cannot be missed by a
     * concurrent close. Close takes only its own monitor, so this order cannot deadlock with it.
     */
    static <T> T holding(String verb, java.util.function.Supplier<T> call, IbvResource... used) {
        return holding(verb, call, used, 0);
    }

    private static <T> T holding(String verb, java.util.function.Supplier<T> call, IbvResource[] used, int i) {
        if (i == used.length) return call.get();
        IbvResource r = used[i];
        if (r == null) return holding(verb, call, used, i + 1);
        synchronized (r) {
            r.live(verb);
            return holding(verb, call, used, i + 1);
        }
    }

    /** How errors name this object, e.g. "QP 0x11". */
    abstract String describe();

    /** The rdma-core verb that destroys it, e.g. "ibv_destroy_qp". */
    abstract String destroyVerb();

    /** Calls the destroy verb; runs under the monitor, after the checks. */
    abstract void destroy();

    /** The pointer, for a verb about to use it; callers hold the monitor (or need no exclusion). */
    final MemorySegment live(String verb) {
        if (closed) throw new VerbsException(verb, Errno.EINVAL, describe() + " is closed");
        return ptr;
    }

    @Override
    public void close() {
        synchronized (this) {
            if (closed) throw new VerbsException(destroyVerb(), Errno.EINVAL, describe() + " is already closed");
            if (!users.isEmpty()) {
                List<String> names = users.stream().map(IbvResource::describe).sorted().toList();
                throw new VerbsException(destroyVerb(), Errno.EBUSY, describe() + " is still used by " + String.join(", ", names));
            }
            destroy();
            closed = true;
        }
        for (IbvResource r : uses) r.users.remove(this);
    }

    @Override
    public String toString() {
        return describe();
    }
}
