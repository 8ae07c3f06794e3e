package org.softrnic.verbs;

/** enum ibv_mtu: the path MTU is the RoCE payload size per packet, not the Ethernet MTU. */
public enum Mtu {
    MTU_256(1, 256), MTU_512(2, 512), MTU_1024(3, 1024), MTU_2048(4, 2048), MTU_4096(5, 4096);

    public final int value;
    public final int bytes;

    Mtu(int value, int bytes) {
        this.value = value;
        this.bytes = bytes;
    }

    public static Mtu ofBytes(int bytes) {
        for (Mtu m : values()) if (m.bytes == bytes) return m;
        throw new IllegalArgumentException("path MTU must be 256, 512, 1024, 2048 or 4096, not " + bytes);
    }

    public static Mtu ofValue(int value) {
        for (Mtu m : values()) if (m.value == value) return m;
        throw new IllegalArgumentException("ibv_mtu must be 1..5, not " + value);
    }

    /** The largest path MTU whose packets fit in an IP MTU of {@code ipMtu} bytes (rxe's rule). */
    public static Mtu forIpMtu(int ipMtu, boolean ipv6) {
        int overhead = (ipv6 ? 40 : 20) + 8 + 12 + 28 + 4; // IP, UDP, BTH, largest extended headers, ICRC
        Mtu best = MTU_256;
        for (Mtu m : values()) if (m.bytes + overhead <= ipMtu) best = m;
        return best;
    }
}
