package org.softrnic.emulator.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.softrnic.nic.NicConfig;
import org.softrnic.verbs.Gid;
import org.softrnic.verbs.Mtu;
import org.softrnic.wire.frame.Udp;

/**
 * One soft RNIC's configuration: what a JSON or YAML file says (see {@link ConfigFiles}), or what
 * {@link #builder()} builds in code. Missing fields take rxe-like defaults; wrong ones fail with the field
 * named.
 *
 * @param name    device name, as ibv_devices lists it
 * @param gids    the port's GID table: IPv4 addresses (stored IPv4-mapped) or IPv6 addresses
 * @param mtu     the port's active MTU in bytes (256..4096)
 * @param udpPort RoCEv2 UDP port; 4791 unless several soft RNICs share one host
 * @param link    the link spec, as --link takes it (inproc, udp[:ADDR[:PORT]], ...)
 * @param seed    seeds the device's memory keys and its CM's IDs
 * @param faults  fault injection on this device's outgoing links of the in-process fabric
 * @param linkFaults faults on the link from this device to the named peer, in place of {@code faults}
 * @param progress {@code thread} (default): the device runs on its own event loop; {@code inline}: the one
 *                 application thread that uses the device drives it whenever it polls (run to completion)
 * @param trace   a pcap file to record every packet the device sends and receives, or null
 * @param cnp     DCQCN's notification point: {@code off} (default, as rxe), {@code firmware} (a CNP per QP at most
 *                every 4 µs, NVIDIA's default) or {@code paper} (every 50 µs)
 * @param dcqcn   DCQCN's reaction point on each RC and UC QP: {@code off} (default, as rxe), {@code firmware} (NVIDIA's
 *                ConnectX-4 and later) or {@code paper} (SIGCOMM 2015); its data goes out ECT(0)
 * @param dcqcnParams the reaction point's parameters by their firmware names ({@code rpg_ai_rate: 8}), over the profile's
 * @param lineGbps the line rate the reaction point starts at and never passes, in Gb/s (default 10)
 * @param maxUnackedPsns each RC QP's window of unacknowledged PSNs: rxe's 128 by default; a hardware RNIC's is far
 *                larger, which a simulated switch's buffer must then hold or drop
 * @param regCost what ibv_reg_mr and ibv_dereg_mr cost, as hardware makes them cost: none by default
 * @param odpFaultNs how long the driver takes to serve a page fault of an ODP region, in nanoseconds: 500 µs by default
 */
public record SoftRnicConfig(String name, List<String> gids, Integer mtu, Integer udpPort, String link, Long seed,
                             LimitsConfig limits, FaultConfig faults, Map<String, FaultConfig> linkFaults, String progress,
                             String trace, String cnp, String dcqcn, Map<String, Double> dcqcnParams, Double lineGbps,
                             Integer maxUnackedPsns, RegCostConfig regCost, Long odpFaultNs) {
    public SoftRnicConfig {
        if (name == null || name.isBlank()) name = "softrnic0";
        if (gids == null || gids.isEmpty()) throw new ConfigException("gids: at least one GID (an IP address) is required");
        for (String g : gids) {
            try {
                Gid.parse(g);
            } catch (IllegalArgumentException e) {
                throw new ConfigException("gids: '" + g + "' is not an IPv4 or IPv6 address", e);
            }
        }
        gids = List.copyOf(gids);
        mtu = mtu == null ? 1024 : mtu;
        try {
            Mtu.ofBytes(mtu);
        } catch (IllegalArgumentException e) {
            throw new ConfigException("mtu: " + e.getMessage(), e);
        }
        udpPort = udpPort == null ? Udp.ROCE_PORT : udpPort;
        if (udpPort < 1 || udpPort > 65535) throw new ConfigException("udp_port must be 1..65535, not " + udpPort);
        link = link == null ? "inproc" : link;
        seed = seed == null ? 1L : seed;
        limits = limits == null ? LimitsConfig.DEFAULTS : limits;
        faults = faults == null ? FaultConfig.NONE : faults;
        linkFaults = linkFaults == null ? Map.of() : Map.copyOf(linkFaults);
        progress = progress == null ? "thread" : progress;
        if (!progress.equals("thread") && !progress.equals("inline")) {
            throw new ConfigException("progress must be thread or inline, not " + progress);
        }
        cnp = cnp == null ? "off" : cnp;
        notificationPoint(cnp); // refuses any other name
        dcqcn = dcqcn == null ? "off" : dcqcn;
        dcqcnParams = dcqcnParams == null ? Map.of() : Map.copyOf(dcqcnParams);
        lineGbps = lineGbps == null ? 10.0 : lineGbps;
        if (!(lineGbps > 0)) throw new ConfigException("line_gbps must be above 0, not " + lineGbps);
        reactionPoint(dcqcn, dcqcnParams); // refuses a profile or a parameter it does not know
        maxUnackedPsns = maxUnackedPsns == null ? 128 : maxUnackedPsns;
        if (maxUnackedPsns < 1 || maxUnackedPsns > 1 << 22) throw new ConfigException("max_unacked_psns must be 1..4194304, not " + maxUnackedPsns);
        regCost = regCost == null ? RegCostConfig.NONE : regCost;
        odpFaultNs = odpFaultNs == null ? DEFAULT_ODP_FAULT_NS : odpFaultNs;
        if (odpFaultNs < 0 || odpFaultNs > 60_000_000_000L) throw new ConfigException("odp_fault_ns must be 0..60000000000, not " + odpFaultNs);
    }

    /** A page fault's time when none is set: one RNR wait of perftest's min_rnr_timer (0.64 ms) covers it (docs/registration.md). */
    public static final long DEFAULT_ODP_FAULT_NS = 500_000L;

    /** The reaction point's parameters {@code dcqcn} and {@code dcqcn_params} name, or null for none. */
    public org.softrnic.nic.cc.DcqcnParameters reactionPoint() {
        return reactionPoint(dcqcn, dcqcnParams);
    }

    private static org.softrnic.nic.cc.DcqcnParameters reactionPoint(String dcqcn, Map<String, Double> params) {
        org.softrnic.nic.cc.DcqcnParameters p = switch (dcqcn) {
            case "off" -> null;
            case "firmware" -> org.softrnic.nic.cc.DcqcnParameters.firmware();
            case "paper" -> org.softrnic.nic.cc.DcqcnParameters.paper();
            default -> throw new ConfigException("dcqcn must be off, firmware or paper, not " + dcqcn);
        };
        if (p == null) {
            if (!params.isEmpty()) throw new ConfigException("dcqcn_params: set, but dcqcn is off");
            return null;
        }
        try {
            return p.with(params);
        } catch (IllegalArgumentException e) {
            throw new ConfigException("dcqcn_params: " + e.getMessage(), e);
        }
    }

    /** The notification point {@code cnp} names. */
    public org.softrnic.nic.cc.NotificationPoint notificationPoint() {
        return notificationPoint(cnp);
    }

    private static org.softrnic.nic.cc.NotificationPoint notificationPoint(String cnp) {
        return switch (cnp) {
            case "off" -> org.softrnic.nic.cc.NotificationPoint.OFF;
            case "firmware" -> org.softrnic.nic.cc.NotificationPoint.firmware();
            case "paper" -> org.softrnic.nic.cc.NotificationPoint.paper();
            default -> throw new ConfigException("cnp must be off, firmware or paper, not " + cnp);
        };
    }

    /** True when the application's thread drives the device ({@code progress: inline}). */
    public boolean inline() {
        return progress.equals("inline");
    }

    /** The nic-model configuration of this device. */
    public NicConfig toNicConfig() {
        List<Gid> table = gids.stream().map(Gid::parse).toList();
        return new NicConfig(name, table, Mtu.ofBytes(mtu), udpPort, seed,
                limits.apply(org.softrnic.verbs.DeviceAttributes.rxeDefaults()));
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Builds a configuration in code, with the same defaults and checks as a file. */
    public static final class Builder {
        private String name;
        private final List<String> gids = new ArrayList<>();
        private Integer mtu;
        private Integer udpPort;
        private String link;
        private Long seed;
        private LimitsConfig limits;
        private FaultConfig faults;
        private final Map<String, FaultConfig> linkFaults = new java.util.HashMap<>();
        private String progress;
        private String trace;
        private String cnp;
        private String dcqcn;
        private final Map<String, Double> dcqcnParams = new java.util.HashMap<>();
        private Double lineGbps;
        private Integer maxUnackedPsns;
        private RegCostConfig regCost;
        private Long odpFaultNs;

        public Builder name(String v) { name = v; return this; }
        public Builder gid(String v) { gids.add(v); return this; }
        public Builder mtu(int v) { mtu = v; return this; }
        public Builder udpPort(int v) { udpPort = v; return this; }
        public Builder link(String v) { link = v; return this; }
        public Builder seed(long v) { seed = v; return this; }
        public Builder limits(LimitsConfig v) { limits = v; return this; }
        public Builder faults(FaultConfig v) { faults = v; return this; }
        /** Faults on the link to {@code peer} only. */
        public Builder linkFaults(String peer, FaultConfig v) { linkFaults.put(peer, v); return this; }
        /** "thread" or "inline". */
        public Builder progress(String v) { progress = v; return this; }
        /** A pcap file for every packet sent and received. */
        public Builder trace(String v) { trace = v; return this; }
        /** "off", "firmware" or "paper": DCQCN's notification point. */
        public Builder cnp(String v) { cnp = v; return this; }
        public Builder dcqcn(String v) { dcqcn = v; return this; }
        public Builder dcqcnParam(String firmwareName, double v) { dcqcnParams.put(firmwareName, v); return this; }
        public Builder lineGbps(double v) { lineGbps = v; return this; }
        public Builder maxUnackedPsns(int v) { maxUnackedPsns = v; return this; }
        public Builder regCost(RegCostConfig v) { regCost = v; return this; }
        public Builder odpFaultNs(long v) { odpFaultNs = v; return this; }

        public SoftRnicConfig build() {
            return new SoftRnicConfig(name, gids, mtu, udpPort, link, seed, limits, faults, linkFaults, progress, trace, cnp, dcqcn, dcqcnParams, lineGbps, maxUnackedPsns, regCost, odpFaultNs);
        }
    }
}
