package org.softrnic.cli.demo;

import org.softrnic.verbs.Mtu;

/**
 * How a scenario runs: the path MTU, the message size (0: the scenario's own), random loss on the link, the
 * seed everything random comes from, the N-th packet to drop (0: none), and whether to show the states each
 * packet took its receiver's responder or completer through.
 */
record DemoOptions(Mtu mtu, int size, double loss, long seed, int drop, boolean states) {
    static final DemoOptions DEFAULT = new DemoOptions(Mtu.MTU_1024, 0, 0, 1, 0);

    DemoOptions(Mtu mtu, int size, double loss, long seed, int drop) {
        this(mtu, size, loss, seed, drop, false);
    }

    int sizeOr(int scenarioDefault) {
        return size > 0 ? size : scenarioDefault;
    }
}
