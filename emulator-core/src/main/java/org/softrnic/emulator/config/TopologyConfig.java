package org.softrnic.emulator.config;

import java.util.List;
import org.softrnic.nic.sim.EcnMarking;
import org.softrnic.nic.sim.Pfc;
import org.softrnic.nic.sim.Topology;

/**
 * A virtual-time fabric's topology as a file says it (JSON or YAML, snake_case keys, an unknown key an error):
 * <pre>
 * hosts: [r, s1, s2]
 * switches:
 *   - {name: sw, buffer_bytes: 1000000, ecn: {kmin_bytes: 40000, kmax_bytes: 160000, pmax: 0.2},
 *      pfc: {priority: 3, xoff_bytes: 200000}}
 * links:
 *   - {a: s1, b: sw, gbps: 10, delay_ns: 1000}
 * </pre>
 * A switch without {@code ecn} marks nothing; without {@code pfc} it is lossy. PFC's XON, headroom and quanta default
 * as {@link Pfc#on} computes them for the switch's link with the most bytes in flight (rate times delay).
 */
public record TopologyConfig(List<String> hosts, List<SwitchConfig> switches, List<LinkConfig> links) {
    public record SwitchConfig(String name, Long bufferBytes, EcnConfig ecn, PfcConfig pfc) { }

    public record EcnConfig(Long kminBytes, Long kmaxBytes, Double pmax) { }

    public record PfcConfig(Integer priority, Long xoffBytes, Long xonBytes, Long headroomBytes, Integer quanta) { }

    public record LinkConfig(String a, String b, Double gbps, Long delayNs) { }

    public TopologyConfig {
        if (hosts == null || hosts.isEmpty()) throw new ConfigException("hosts: at least one host is required");
        if (switches == null) switches = List.of();
        if (links == null || links.isEmpty()) throw new ConfigException("links: at least one link is required");
    }

    /** The topology, checked: every name known, every host on one link, every value in range. */
    public Topology toTopology() {
        try {
            List<Topology.Link> ls = links.stream().map(l -> new Topology.Link(required(l.a(), "links: a"), required(l.b(), "links: b"),
                    required(l.gbps(), "links: gbps"), l.delayNs() == null ? 1_000 : l.delayNs())).toList();
            List<Topology.Switch> ss = switches.stream().map(s -> {
                String name = required(s.name(), "switches: name");
                EcnMarking ecn = s.ecn() == null ? EcnMarking.OFF
                        : new EcnMarking(required(s.ecn().kminBytes(), "ecn: kmin_bytes"), required(s.ecn().kmaxBytes(), "ecn: kmax_bytes"),
                        required(s.ecn().pmax(), "ecn: pmax"));
                return new Topology.Switch(name, s.bufferBytes() == null ? 32_000_000 : s.bufferBytes(), ecn, pfc(s.pfc(), name, ls));
            }).toList();
            return new Topology(hosts, ss, ls);
        } catch (IllegalArgumentException e) {
            throw new ConfigException(e.getMessage(), e);
        }
    }

    private static Pfc pfc(PfcConfig p, String sw, List<Topology.Link> links) {
        if (p == null) return Pfc.OFF;
        int priority = p.priority() == null ? 3 : p.priority();
        if (priority < 0 || priority > 7) throw new ConfigException("pfc: priority must be 0..7, not " + priority);
        // the headroom must hold what the longest, fastest of its links has in flight: size it for that one
        Topology.Link widest = links.stream().filter(l -> l.a().equals(sw) || l.b().equals(sw))
                .max(java.util.Comparator.comparingDouble(l -> l.gbps() * l.delayNanos())).orElseThrow(() -> new ConfigException("switch " + sw + " has no link"));
        Pfc d = Pfc.on(priority, required(p.xoffBytes(), "pfc: xoff_bytes"), widest.gbps(), widest.delayNanos(), Pfc.MTU_1024_FRAME);
        return new Pfc(d.priorities(), d.xoffBytes(), p.xonBytes() == null ? d.xonBytes() : p.xonBytes(),
                p.headroomBytes() == null ? d.headroomBytes() : p.headroomBytes(), p.quanta() == null ? d.quanta() : p.quanta());
    }

    private static <T> T required(T v, String what) {
        if (v == null) throw new ConfigException(what + " is required");
        return v;
    }
}
