package org.softrnic.cli.demo;

import java.util.ArrayList;
import java.util.List;
import org.softrnic.nic.sim.SimFabric;

/**
 * The states each packet took its receiver through (softrnic demo --states): every responder and completer
 * step of both devices, stamped with the virtual time it happened at, then given to the packets that arrived
 * at that time, in order (a packet's steps start with CHK_PSN or CHECK_PSN).
 */
final class StatePaths {
    private record Step(String side, long at, String role, String state) {}

    private final List<Step> recorded = new ArrayList<>();
    private final DemoRig rig;

    StatePaths(DemoRig rig) {
        this.rig = rig;
        for (DemoRig.Side s : new DemoRig.Side[] {rig.a, rig.b}) {
            s.device().traceStates((qpn, role, state) -> recorded.add(new Step(s.name(), rig.simulation().clock().nanoTime(), role, state)));
        }
    }

    /** One line per packet of {@code trace} (duplicates left out, as the ladder leaves them), null where it has none. */
    List<String> perPacket(List<SimFabric.Packet> trace) {
        List<String> out = new ArrayList<>();
        for (SimFabric.Packet p : trace) {
            if (p.duplicate()) continue;
            String to = p.from() == 0 ? "B" : "A";
            StringBuilder path = null;
            String role = null;
            if (!p.dropped()) {
                // this packet's steps: the first run at its arrival on its receiver that starts a packet
                for (int i = 0; i < recorded.size(); i++) {
                    Step s = recorded.get(i);
                    if (s.at() > p.arrivesAt()) break;
                    if (s.at() < p.arrivesAt() || !s.side().equals(to)) continue;
                    boolean starts = s.state().equals("CHK_PSN") || s.state().equals("CHECK_PSN");
                    if (path == null && !starts) continue;
                    if (path != null && starts) break;
                    if (path == null) {
                        path = new StringBuilder();
                        role = s.role();
                    } else {
                        path.append(" > ");
                    }
                    path.append(s.state());
                    recorded.set(i, new Step("", -1, "", "")); // taken
                }
            }
            out.add(path == null ? null : to + " " + role + ": " + path);
        }
        return out;
    }
}
