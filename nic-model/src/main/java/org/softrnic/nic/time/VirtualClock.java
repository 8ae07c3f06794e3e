package org.softrnic.nic.time;

/** A clock that moves only when told to: the simulation advances it from event to event. */
public final class VirtualClock implements Clock {
    private long now;

    @Override
    public long nanoTime() {
        return now;
    }

    public void advanceTo(long nanos) {
        if (nanos < now) throw new IllegalArgumentException("time cannot go back: " + nanos + " < " + now);
        now = nanos;
    }
}
