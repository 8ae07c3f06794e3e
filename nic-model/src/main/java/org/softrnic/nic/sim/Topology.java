package org.softrnic.nic.sim;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Hosts (soft RNICs, by device name), switches and the links between them, for a virtual-time fabric: each link a
 * rate and a one-way propagation delay, each switch egress queues per port and priority with a drop-tail buffer,
 * an ECN marking law and PFC. Packets take the fewest hops; CNPs (DSCP 48, priority 6) and anything at priority 6
 * or 7 go first, strictly, and are never marked.
 */
public record Topology(List<String> hosts, List<Switch> switches, List<Link> links) {
    /** A switch: the buffer of each egress port, its marking law and its flow control. */
    public record Switch(String name, long bufferBytes, EcnMarking ecn, Pfc pfc) {
        public Switch {
            if (bufferBytes <= 0) throw new IllegalArgumentException("switch " + name + " needs a buffer");
        }
    }

    /** A full-duplex link between two nodes (hosts or switches). */
    public record Link(String a, String b, double gbps, long delayNanos) {
        public Link {
            if (!(gbps > 0)) throw new IllegalArgumentException("link " + a + "-" + b + " needs a rate above 0 Gb/s");
            if (delayNanos < 0) throw new IllegalArgumentException("link " + a + "-" + b + " has a negative delay");
        }
    }

    public Topology {
        hosts = List.copyOf(hosts);
        switches = List.copyOf(switches);
        links = List.copyOf(links);
        Set<String> names = new HashSet<>();
        for (String h : hosts) if (!names.add(h)) throw new IllegalArgumentException("two nodes are named " + h);
        for (Switch s : switches) if (!names.add(s.name())) throw new IllegalArgumentException("two nodes are named " + s.name());
        Set<String> linked = new HashSet<>();
        for (Link l : links) {
            for (String end : List.of(l.a(), l.b())) {
                if (!names.contains(end)) throw new IllegalArgumentException("link " + l.a() + "-" + l.b() + " names no node " + end);
                if (hosts.contains(end) && !linked.add(end)) throw new IllegalArgumentException("host " + end + " has more than one link");
            }
            if (l.a().equals(l.b())) throw new IllegalArgumentException("link " + l.a() + "-" + l.b() + " loops");
        }
        for (String h : hosts) if (!linked.contains(h)) throw new IllegalArgumentException("host " + h + " has no link");
    }

    /** Every host on its own link of {@code gbps} and {@code delayNanos} to one switch. */
    public static Topology star(List<String> hosts, Switch sw, double gbps, long delayNanos) {
        return new Topology(hosts, List.of(sw), hosts.stream().map(h -> new Link(h, sw.name(), gbps, delayNanos)).toList());
    }
}
