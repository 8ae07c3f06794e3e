package org.softrnic.emulator.soft;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.softrnic.emulator.fabric.Port;

/**
 * A device's event loop: one platform thread owns the model. Posts ring their queue's doorbell, control verbs
 * arrive through a task queue, packets through the port. When there is nothing to do the loop spins for
 * {@code softrnic.spin_ns} (50 us by default, what a round trip needs to stay off the scheduler), then sleeps in
 * the port until a packet, a doorbell, a task or the next timer.
 */
final class LoopRunner implements Runner {
    private static final long SPIN_NANOS = Long.getLong("softrnic.spin_ns", 50_000L);
    private static final long MAX_SLEEP_NANOS = 100_000_000L;

    private final DeviceAgent agent;
    private final Port port;
    private final ConcurrentLinkedQueue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    private final Thread thread;
    private final BooleanSupplier idle;
    private volatile boolean stopping;

    LoopRunner(String name, DeviceAgent agent) {
        this.agent = agent;
        this.port = agent.port;
        this.idle = () -> tasks.isEmpty() && agent.doorbellsQuiet() && !stopping;
        this.thread = Thread.ofPlatform().name("softrnic-" + name).daemon(true).unstarted(this::loop);
        thread.start();
    }

    private void loop() {
        port.bind(Thread.currentThread());
        long idleSince = 0;
        while (!stopping) {
            try {
                long now = System.nanoTime();
                int work = runTasks() + agent.doWork(now);
                long deadline = agent.nic.nextDeadline();
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
                agent.failed(e);
            }
        }
        failPending();
    }

    /**
     * Runs waiting control verbs, each after every doorbell rung before it was asked for: a thread that posts and
     * then modifies or destroys the QP has its posts taken first.
     */
    private int runTasks() {
        int n = 0;
        for (Runnable t; (t = tasks.poll()) != null; n++) {
            try {
                agent.answerDoorbells();
            } catch (RuntimeException | Error e) {
                agent.failed(e); // the task still runs: its caller waits for it
            }
            t.run();
        }
        return n;
    }

    private void failPending() {
        for (Runnable t; (t = tasks.poll()) != null; ) t.run(); // each fails: see call()
    }

    @Override
    public <T> T call(Supplier<T> verb) {
        if (Thread.currentThread() == thread) return verb.get();
        if (stopping) throw new IllegalStateException("the device is closed");
        CompletableFuture<T> result = new CompletableFuture<>();
        tasks.add(() -> {
            if (stopping) {
                result.completeExceptionally(new IllegalStateException("the device is closed"));
                return;
            }
            try {
                result.complete(verb.get());
            } catch (Throwable t) {
                result.completeExceptionally(t);
            }
        });
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
    public void ring(Doorbells.Bell bell) {
        if (agent.ring(bell)) port.wakeup();
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

    @Override
    public DeviceAgent agent() {
        return agent;
    }

    @Override
    public String toString() {
        return thread.getName() + " " + thread.getState() + (agent.lastFailure() == null ? "" : " last failure: " + agent.lastFailure());
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
