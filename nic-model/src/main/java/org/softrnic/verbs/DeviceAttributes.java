package org.softrnic.verbs;

/**
 * What the device supports, as ibv_query_device reports it. Defaults follow rxe (rxe_param.h) where a
 * user would notice the difference.
 */
public record DeviceAttributes(
        int maxQp, int maxQpWr, int maxSge, int maxSgeRd, int maxCq, int maxCqe, int maxMr, long maxMrSize,
        int maxPd, int maxQpRdAtom, int maxQpInitRdAtom, int maxSrq, int maxSrqWr, int maxSrqSge,
        int maxInlineData, int maxMw, AtomicCap atomicCap, int maxAh) {

    /** IBV_ATOMIC_*: rxe answers atomics host-endian and atomically among its own QPs (ATOMIC_HCA). */
    public enum AtomicCap { NONE, HCA, GLOB }

    public static DeviceAttributes rxeDefaults() {
        return new DeviceAttributes(0x10000, 0x4000, 32, 32, 0x4000, 0x8000, 0x40000, -1L, 0x8000, 128, 128,
                0x4000, 0x4000, 27, 256, 0x10000, AtomicCap.HCA, 0x8000);
    }
}
