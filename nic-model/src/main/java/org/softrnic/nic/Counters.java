package org.softrnic.nic;

import java.util.LinkedHashMap;
import java.util.Map;

/** One long per {@link Counter}; incremented by the engine's single thread. */
public final class Counters {
    private final long[] values = new long[Counter.values().length];

    public void inc(Counter c) {
        values[c.ordinal()]++;
    }

    public void add(Counter c, long n) {
        values[c.ordinal()] += n;
    }

    public long get(Counter c) {
        return values[c.ordinal()];
    }

    /** Name to value, in {@link Counter} order, for JSON and the CLI. */
    public Map<String, Long> snapshot() {
        Map<String, Long> m = new LinkedHashMap<>();
        for (Counter c : Counter.values()) m.put(c.counterName, values[c.ordinal()]);
        return m;
    }
}
