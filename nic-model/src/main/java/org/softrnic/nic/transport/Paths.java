package org.softrnic.nic.transport;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.softrnic.nic.LinkProfile;
import org.softrnic.verbs.AddressVector;
import org.softrnic.verbs.Gid;
import org.softrnic.wire.frame.Ethernet;
import org.softrnic.wire.frame.FrameTemplate;
import org.softrnic.wire.frame.IpHeader;
import org.softrnic.wire.frame.Ipv4;
import org.softrnic.wire.frame.Ipv6;
import org.softrnic.wire.frame.Udp;

/**
 * The paths a device sends along, one per address vector, each with the headers below the BTH encoded once and
 * shared by every QP that sends along it: the UDP source port, the one field that differs between them, is set
 * per packet ({@link Engine#begin}). Ten thousand QPs to one peer then hold one vector and one template, not
 * one each, and a QP's working set is smaller by them.
 */
final class Paths {
    /** A path: the vector every QP along it shares, its local GID, and its headers. */
    record Path(AddressVector av, Gid sgid, FrameTemplate headers) { }

    /**
     * A bound on the paths kept: past it the least recently used is forgotten (a QP that holds it keeps it), so
     * that a UD QP sending to ever new addresses neither grows the map nor rebuilds the headers of the ones it
     * sends to often.
     */
    private static final int MAX_PATHS = 1 << 16;

    private final Map<AddressVector, Path> paths = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<AddressVector, Path> eldest) {
            return size() > MAX_PATHS;
        }
    };
    private final List<Gid> gids;
    private final int rocePort;
    private final LinkProfile link;

    Paths(List<Gid> gids, int rocePort, LinkProfile link) {
        this.gids = gids;
        this.rocePort = rocePort;
        this.link = link;
    }

    /** Data goes out ECT(0) unless the vector's traffic class names an ECN codepoint (a device that reacts to CNPs). */
    private boolean ecnCapable;

    void ecnCapable(boolean on) {
        if (on != ecnCapable) paths.clear(); // headers made before carry the old codepoint
        ecnCapable = on;
    }

    /** The path along {@code av}, made the first time. */
    Path of(AddressVector av) {
        Path p = paths.get(av);
        if (p == null) {
            p = new Path(av, sgid(av), headers(av));
            paths.put(av, p);
        }
        return p;
    }

    /** The local GID an address vector sends from. */
    private Gid sgid(AddressVector av) {
        return gids.get(av.sgidIndex() < gids.size() ? av.sgidIndex() : 0);
    }

    private FrameTemplate headers(AddressVector av) {
        Gid dgid = av.dgid();
        int trafficClass = av.trafficClass();
        if (ecnCapable && (trafficClass & 3) == 0) trafficClass |= 0b10;
        Gid sgid = sgid(av);
        IpHeader ip;
        if (dgid.isIpv4Mapped() && sgid.isIpv4Mapped()) {
            ip = Ipv4.roce((java.net.Inet4Address) sgid.toInetAddress(), (java.net.Inet4Address) dgid.toInetAddress(),
                    0, trafficClass >>> 2, trafficClass & 3);
        } else {
            ip = new Ipv6(trafficClass >>> 2, trafficClass & 3, av.flowLabel(), 0, Ipv4.PROTO_UDP, av.hopLimit(),
                    Ipv6.parse(sgid.toInetAddress().getHostAddress()), Ipv6.parse(dgid.toInetAddress().getHostAddress()));
        }
        // a link that fixes the source port has it here; otherwise each packet gets its QP's
        int port = Math.max(0, link.udpSourcePort());
        return FrameTemplate.of((Ethernet) null, ip, new Udp(port, av.udpPort() != 0 ? av.udpPort() : rocePort, 0, 0));
    }
}
