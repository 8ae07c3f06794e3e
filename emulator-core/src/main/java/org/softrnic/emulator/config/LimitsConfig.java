package org.softrnic.emulator.config;

import org.softrnic.verbs.DeviceAttributes;

/**
 * Device limits that differ from rxe's defaults; a missing field keeps the default. {@code memlock_bytes} is the
 * locked-memory limit the kernel applies to registrations (RLIMIT_MEMLOCK, {@code ulimit -l}): none unless set.
 */
public record LimitsConfig(Integer maxQp, Integer maxQpWr, Integer maxSge, Integer maxCq, Integer maxCqe, Integer maxMr,
                           Integer maxQpRdAtom, Integer maxInlineData, Integer maxSrqWr, Long memlockBytes) {
    public static final LimitsConfig DEFAULTS = new LimitsConfig(null, null, null, null, null, null, null, null, null, null);

    /** The device's limits as rxe's, with no locked-memory limit. */
    public LimitsConfig(Integer maxQp, Integer maxQpWr, Integer maxSge, Integer maxCq, Integer maxCqe, Integer maxMr,
                        Integer maxQpRdAtom, Integer maxInlineData, Integer maxSrqWr) {
        this(maxQp, maxQpWr, maxSge, maxCq, maxCqe, maxMr, maxQpRdAtom, maxInlineData, maxSrqWr, null);
    }

    public LimitsConfig {
        for (Integer v : new Integer[] {maxQp, maxQpWr, maxSge, maxCq, maxCqe, maxMr, maxQpRdAtom, maxSrqWr}) {
            if (v != null && v < 1) throw new ConfigException("limits must be positive, got " + v);
        }
        if (maxInlineData != null && maxInlineData < 0) throw new ConfigException("limits.max_inline_data cannot be negative");
        if (memlockBytes != null && memlockBytes < 0) throw new ConfigException("limits.memlock_bytes cannot be negative");
    }

    public DeviceAttributes apply(DeviceAttributes d) {
        return new DeviceAttributes(or(maxQp, d.maxQp()), or(maxQpWr, d.maxQpWr()), or(maxSge, d.maxSge()),
                or(maxSge, d.maxSgeRd()), or(maxCq, d.maxCq()), or(maxCqe, d.maxCqe()), or(maxMr, d.maxMr()),
                d.maxMrSize(), d.maxPd(), or(maxQpRdAtom, d.maxQpRdAtom()), or(maxQpRdAtom, d.maxQpInitRdAtom()),
                d.maxSrq(), or(maxSrqWr, d.maxSrqWr()), d.maxSrqSge(), or(maxInlineData, d.maxInlineData()), d.maxMw(),
                d.atomicCap(), d.maxAh());
    }

    private static int or(Integer v, int dflt) {
        return v == null ? dflt : v;
    }
}
