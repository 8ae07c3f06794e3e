package org.softrnic.nic;

import java.util.List;
import org.softrnic.verbs.DeviceAttributes;
import org.softrnic.verbs.Gid;
import org.softrnic.verbs.Mtu;
import org.softrnic.wire.frame.Udp;

/**
 * How one soft RNIC is set up.
 *
 * @param gids      the port's GID table; index 0 is the default (rxe puts the IPv4-mapped GID at index 1)
 * @param activeMtu the port's active MTU, which UD uses and ibv_query_port reports
 * @param rocePort  UDP destination port for RoCEv2, 4791 unless several soft RNICs share one host
 * @param seed      makes key and QPN choices, and so a whole simulated run, reproducible
 * @param link      what the link does to the headers the ICRC covers
 */
public record NicConfig(String name, List<Gid> gids, Mtu activeMtu, int rocePort, long seed, DeviceAttributes attributes,
                        LinkProfile link) {
    public NicConfig {
        if (gids == null || gids.isEmpty()) throw new IllegalArgumentException("a port needs at least one GID");
        gids = List.copyOf(gids);
        if (link == null) link = LinkProfile.FRAMES;
    }

    public NicConfig(String name, List<Gid> gids, Mtu activeMtu, int rocePort, long seed, DeviceAttributes attributes) {
        this(name, gids, activeMtu, rocePort, seed, attributes, LinkProfile.FRAMES);
    }

    public static NicConfig of(String name, Gid gid, long seed) {
        return new NicConfig(name, List.of(gid), Mtu.MTU_1024, Udp.ROCE_PORT, seed, DeviceAttributes.rxeDefaults());
    }

    public NicConfig withMtu(Mtu mtu) {
        return new NicConfig(name, gids, mtu, rocePort, seed, attributes, link);
    }

    /** The same device on another RoCE UDP port. */
    public NicConfig withRocePort(int port) {
        return new NicConfig(name, gids, activeMtu, port, seed, attributes, link);
    }

    public NicConfig withLink(LinkProfile profile) {
        return new NicConfig(name, gids, activeMtu, rocePort, seed, attributes, profile);
    }
}
