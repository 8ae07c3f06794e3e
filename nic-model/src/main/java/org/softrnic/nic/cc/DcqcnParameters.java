package org.softrnic.nic.cc;

/**
 * DCQCN's reaction-point parameters, by the names NVIDIA's firmware and mlx5's {@code cc_params} give them, in the
 * firmware's units (µs, Mb/s; {@code rpg_byte_reset} in 64-byte units, as isekai reads it). The paper's profile uses
 * the same names for its symbols: T is {@code rpg_time_reset}, B {@code rpg_byte_reset}, F {@code rpg_threshold},
 * R_AI and R_HAI the two rates, K {@code dce_tcp_rtt}, and g = (1024 − {@code dce_tcp_g})/1024.
 */
public record DcqcnParameters(Profile profile, long rpgTimeResetMicros, long rpgByteReset, int rpgThreshold, double rpgAiRate,
                              double rpgHaiRate, int rpgGd, int rpgMinDecFac, double rpgMinRate, double rateToSetOnFirstCnp,
                              int dceTcpG, long dceTcpRttMicros, long rateReduceMonitorPeriodMicros, int initialAlpha,
                              boolean clampTgtRate, boolean clampTgtRateAfterTimeInc) {
    /** Which DCQCN: the SIGCOMM'15 paper's, or NVIDIA's firmware's. */
    public enum Profile { PAPER, FIRMWARE }

    public DcqcnParameters {
        if (profile == null) throw new IllegalArgumentException("a profile is required");
        if (dceTcpG < 0 || dceTcpG > 1024) throw new IllegalArgumentException("dce_tcp_g " + dceTcpG + " not in 0..1024");
        if (initialAlpha < 0 || initialAlpha > 1024) throw new IllegalArgumentException("initial_alpha_value " + initialAlpha + " not in 0..1024");
        if (rpgMinDecFac < 0 || rpgMinDecFac > 100) throw new IllegalArgumentException("rpg_min_dec_fac " + rpgMinDecFac + " not in 0..100");
        if (rpgGd < 0 || rpgGd > 31) throw new IllegalArgumentException("rpg_gd " + rpgGd + " not in 0..31");
        // a rate of 0 would hold the requester for ever; a period of 0 would be a timer event every nanosecond
        if (!(rpgMinRate > 0)) throw new IllegalArgumentException("rpg_min_rate must be above 0 Mb/s, not " + rpgMinRate);
        if (rpgTimeResetMicros < 1) throw new IllegalArgumentException("rpg_time_reset must be at least 1 µs, not " + rpgTimeResetMicros);
        if (dceTcpRttMicros < 1) throw new IllegalArgumentException("dce_tcp_rtt must be at least 1 µs, not " + dceTcpRttMicros);
        if (profile == Profile.FIRMWARE && rateReduceMonitorPeriodMicros < 1) {
            throw new IllegalArgumentException("rate_reduce_monitor_period must be at least 1 µs, not " + rateReduceMonitorPeriodMicros);
        }
        if (rpgByteReset < 0) throw new IllegalArgumentException("rpg_byte_reset cannot be negative");
        if (rpgAiRate < 0 || rpgHaiRate < 0 || rateToSetOnFirstCnp < 0) throw new IllegalArgumentException("rates cannot be negative");
    }

    /**
     * NVIDIA's defaults, as three {@code mlxconfig -q} dumps show them: 300 µs, 32767, 1, 5 and 50 Mb/s, gd 11,
     * min_dec_fac 50, min rate 1 Mb/s, no rate on the first CNP, G 1019, 1 µs, 4 µs, α 1023, clamp after a time
     * increase only.
     */
    public static DcqcnParameters firmware() {
        return new DcqcnParameters(Profile.FIRMWARE, 300, 32767, 1, 5, 50, 11, 50, 1, 0, 1019, 1, 4, 1023, false, true);
    }

    /**
     * The paper's profile as htsim sets it (the paper's own numbers are not all verified): T = K = 55 µs, B = 10 MB,
     * F = 5, g = 1/256 (G 1020), α 1, R_AI 40 Mb/s and R_HAI 200 Mb/s (ns3-rdma's sample), RT ← RC on every CNP.
     */
    public static DcqcnParameters paper() {
        return new DcqcnParameters(Profile.PAPER, 55, 10_000_000 / 64, 5, 40, 200, 1, 0, 1, 0, 1020, 55, 0, 1024, true, false);
    }

    /** The firmware's name of each parameter, and the record component that holds it. */
    private static final java.util.Map<String, String> FIRMWARE_NAMES = java.util.Map.ofEntries(
            java.util.Map.entry("rpg_time_reset", "rpgTimeResetMicros"), java.util.Map.entry("rpg_byte_reset", "rpgByteReset"),
            java.util.Map.entry("rpg_threshold", "rpgThreshold"), java.util.Map.entry("rpg_ai_rate", "rpgAiRate"),
            java.util.Map.entry("rpg_hai_rate", "rpgHaiRate"), java.util.Map.entry("rpg_gd", "rpgGd"),
            java.util.Map.entry("rpg_min_dec_fac", "rpgMinDecFac"), java.util.Map.entry("rpg_min_rate", "rpgMinRate"),
            java.util.Map.entry("rate_to_set_on_first_cnp", "rateToSetOnFirstCnp"), java.util.Map.entry("dce_tcp_g", "dceTcpG"),
            java.util.Map.entry("dce_tcp_rtt", "dceTcpRttMicros"),
            java.util.Map.entry("rate_reduce_monitor_period", "rateReduceMonitorPeriodMicros"),
            java.util.Map.entry("initial_alpha_value", "initialAlpha"), java.util.Map.entry("clamp_tgt_rate", "clampTgtRate"),
            java.util.Map.entry("clamp_tgt_rate_after_time_inc", "clampTgtRateAfterTimeInc"));

    /** The parameters' firmware names, as {@link #with} takes them. */
    public static java.util.Set<String> firmwareNames() {
        return new java.util.TreeSet<>(FIRMWARE_NAMES.keySet());
    }

    /**
     * These parameters with some set by their firmware names ({@code rpg_ai_rate: 8}, in the firmware's units; a flag
     * is 0 or 1). An unknown name or a value out of range is refused with an IllegalArgumentException that says which.
     */
    public DcqcnParameters with(java.util.Map<String, ? extends Number> changes) {
        var components = DcqcnParameters.class.getRecordComponents();
        Object[] values = new Object[components.length];
        Class<?>[] types = new Class<?>[components.length];
        try {
            for (int i = 0; i < components.length; i++) {
                values[i] = components[i].getAccessor().invoke(this);
                types[i] = components[i].getType();
            }
            for (var e : changes.entrySet()) {
                String field = FIRMWARE_NAMES.get(e.getKey());
                if (field == null) throw new IllegalArgumentException("no DCQCN parameter is named " + e.getKey() + "; the names are " + firmwareNames());
                for (int i = 0; i < components.length; i++) {
                    if (!components[i].getName().equals(field)) continue;
                    Number v = e.getValue();
                    values[i] = types[i] == long.class ? (Object) v.longValue() : types[i] == int.class ? (Object) v.intValue()
                            : types[i] == boolean.class ? (Object) (v.intValue() != 0) : (Object) v.doubleValue();
                }
            }
            return DcqcnParameters.class.getDeclaredConstructor(types).newInstance(values);
        } catch (java.lang.reflect.InvocationTargetException e) {
            if (e.getCause() instanceof IllegalArgumentException iae) throw iae;
            throw new IllegalStateException(e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    /** {@code rpg_byte_reset} in bytes. */
    public long byteResetBytes() {
        return rpgByteReset * 64;
    }
}
