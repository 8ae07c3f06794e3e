package org.softrnic.wire.frame;

import java.net.InetAddress;

/** An IPv4 or IPv6 header, as carried under a RoCEv2 packet. */
public sealed interface IpHeader permits Ipv4, Ipv6 {
    int version();

    InetAddress src();

    InetAddress dst();

    /** DSCP: the upper six bits of TOS / traffic class. */
    int dscp();

    /** ECN: the lower two bits of TOS / traffic class (RFC 3168); 0b11 is CE. */
    int ecn();

    /** TTL (IPv4) or hop limit (IPv6). */
    int ttl();

    int headerLength();

    int etherType();
}
