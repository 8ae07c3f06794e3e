package org.softrnic.wire.pcap;

/** pcap link-layer header types (tcpdump.org LINKTYPE_*) that can carry RoCEv2, and where IP starts in each. */
public enum LinkType {
    ETHERNET(1),
    /** LINKTYPE_RAW: the packet starts with an IPv4 or IPv6 header. */
    RAW(101),
    /** DLT_RAW as some platforms number it in files. */
    RAW_12(12),
    RAW_14(14),
    IPV4(228),
    IPV6(229),
    /** Linux "cooked" capture v1: 16-byte header, protocol type at offset 14. */
    LINUX_SLL(113),
    /** Linux "cooked" capture v2: 20-byte header, protocol type at offset 0. */
    LINUX_SLL2(276);

    public static final int SLL_LENGTH = 16;
    public static final int SLL2_LENGTH = 20;

    public final int value;

    LinkType(int value) {
        this.value = value;
    }

    /** The link type with this number, or null when softrnic cannot find IP inside it. */
    public static LinkType of(int value) {
        for (LinkType t : values()) {
            if (t.value == value) return t;
        }
        return null;
    }
}
