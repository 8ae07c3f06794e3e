package org.softrnic.emulator.soft;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.softrnic.emulator.concurrent.SlotRing;
import org.softrnic.emulator.fabric.Port;
import org.softrnic.nic.Nic;

/**
 * A device's event loop: one platform thread owns the model. Posted requests arrive through a lock-free
 * ring, control verbs through a task queue; packets through the port. When there is nothing to do the loop
 * spins for {@code softrnic.spin_ns} (50 us by default, what a round trip needs to stay off the scheduler),
 * then sleeps in the port until a packet, a post, a task or the next timer.
 */
final class LoopRunner implements Runner {
    private static final long SPIN_NANOS = Long.getLong("softrnic.spin_ns", 50_000L);
    private static final int POST_SLOTS = 512;
    private static final int BUDGET = 64;
    private static final long MAX_SLEEP_NANOS = 100_000_000L;

    private final Nic nic;
    private final Port port;
    private final SlotRing<PostSlot> posts;
    /** A control verb, and how many posts had been claimed when it was asked for: those go first. */
    private record Task(Runnable verb, long postsBefore) {}

    private final ConcurrentLinkedQueue<Task> tasks = new ConcurrentLinkedQueue<>();
    private final Thread thread;
    private final BooleanSupplier idle;
    private volatile boolean stopping;
    private volatile long refused;
    private volatile RuntimeException lastRefusal;
    private volatile long failures;
    private volatile Throwable lastFailure;

    LoopRunner(String name, Nic nic, Port port, int maxSge, int maxInline) {
        this.nic = nic;
        this.port = port;
        this.posts = new SlotRing<>(POST_SLOTS, i -> new PostSlot(maxSge, maxInline));
        this.idle = () -> tasks.isEmpty() && posts.isEmpty() && !stopping;
        this.thread = Thread.ofPlatform().name("softrnic-" + name).daemon(true).unstarted(this::loop);
        thread.start();
    }

    private void loop() {
        port.bind(Thread.currentThread());
        long idleSince = 0;
        while (!stopping) {
            try {
                int work = runTasks() + drainPosts(BUDGET) + PortStep.run(nic, port, BUDGET, this::failed);
                long now = System.nanoTime();
                long deadline = nic.nextDeadline();
                if (work > 0) {
                    idleSince = 0;
                } else if (idleSince == 0) {
                    idleSince = now;
                } else if (now - idleSince < SPIN_NANOS) {
                    Thread.onSpinWait();
                } else {
                    port.await(Math.min(deadline, now + MAX_SLEEP_NANOS), idle);
                }
            } catch (RuntimeException | Error e) {
                // a bug must not take the device down silently, nor stop it
                failed(e);
            }
        }
        failPending();
    }

    private void failed(Throwable e) {
        failures++;
        lastFailure = e;
        nic.diagnostics().fault(nic.clock().nanoTime(), "the device's loop failed (loop_failures counts it): " + e);
    }

    /**
     * Runs waiting control verbs, each after every request claimed before it was asked for, even one whose
     * thread has not published it yet (it will: a claim is always published, if only as an empty slot).
     */
    private int runTasks() {
        int n = 0;
        for (Task t; (t = tasks.poll()) != null; n++) {
            while (true) {
                drainPosts(Integer.MAX_VALUE);
                if (posts.taken() >= t.postsBefore()) break;
                Thread.onSpinWait();
            }
            t.verb().run();
        }
        return n;
    }

    private int drainPosts(int budget) {
        int n = 0;
        for (PostSlot s; n < budget && (s = posts.peek()) != null; n++) {
            PostSlot.Kind kind = s.kind; // what the refusal names; postTo clears the slot
            var qp = s.qp;
            long wrId = kind == PostSlot.Kind.SEND ? s.send.wrId : s.recv.wrId;
            try {
                s.postTo(nic);
            } catch (RuntimeException e) {
                // checked on the posting thread already; only a race with modify_qp or destroy, or a link
                // failure, gets here: the post returned, so the refusal is said where a test's failure shows it
                refused++;
                lastRefusal = e;
                nic.diagnostics().fault(nic.clock().nanoTime(), "a request posted to " + PostSlot.describe(kind, qp, wrId)
                        + " was refused on the device's thread after the post returned, so no completion will come for it: "
                        + e.getMessage());
            } finally {
                posts.release();
            }
        }
        return n;
    }

    private void failPending() {
        for (Task t; (t = tasks.poll()) != null; ) t.verb().run(); // each fails: see call()
    }

    @Override
    public <T> T call(Supplier<T> verb) {
        if (Thread.currentThread() == thread) return verb.get();
        if (stopping) throw new IllegalStateException("the device is closed");
        CompletableFuture<T> result = new CompletableFuture<>();
        tasks.add(new Task(() -> {
            if (stopping) {
                result.completeExceptionally(new IllegalStateException("the device is closed"));
                return;
            }
            try {
                result.complete(verb.get());
            } catch (Throwable t) {
                result.completeExceptionally(t);
            }
        }, posts.claimed()));
        port.wakeup();
        if (stopping) failPending(); // the loop may have ended before this task was queued
        try {
            return result.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException r) throw r;
            if (e.getCause() instanceof Error r) throw r;
            throw e;
        }
    }

    @Override
    public long claim() {
        while (true) {
            long c = posts.tryClaim();
            if (c >= 0) return c;
            if (stopping) throw new IllegalStateException("the device is closed");
            port.wakeup();
            Thread.onSpinWait();
        }
    }

    @Override
    public PostSlot slot(long claim) {
        return posts.slot(claim);
    }

    @Override
    public void publish(long claim) {
        posts.publish(claim);
        port.wakeup();
    }

    @Override
    public boolean idle() {
        Thread.onSpinWait();
        return false;
    }

    @Override
    public boolean drivesProgress() {
        return false;
    }

    /** Requests the model refused on the loop although the posting thread had accepted them. */
    long refused() {
        return refused;
    }

    RuntimeException lastRefusal() {
        return lastRefusal;
    }

    @Override
    public long failures() {
        return failures;
    }

    Throwable lastFailure() {
        return lastFailure;
    }

    @Override
    public String toString() {
        return thread.getName() + " " + thread.getState() + (lastFailure == null ? "" : " last failure: " + lastFailure)
                + (lastRefusal == null ? "" : " last refusal: " + lastRefusal.getMessage());
    }

    @Override
    public void close() {
        stopping = true;
        port.wakeup();
        java.util.concurrent.locks.LockSupport.unpark(thread);
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
