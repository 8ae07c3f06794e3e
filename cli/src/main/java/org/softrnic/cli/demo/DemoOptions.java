package org.softrnic.cli.demo;

import org.softrnic.verbs.Mtu;

/**
 * How a scenario runs: the path MTU, the message size (0: the scenario's own), random loss on the link, the
 * seed everything random comes from, and the N-th packet to drop (0: none).
 */
record DemoOptions(Mtu mtu, int size, double loss, long seed, int drop) {
    static final DemoOptions DEFAULT = new DemoOptions(Mtu.MTU_1024, 0, 0, 1, 0);

    int sizeOr(int scenarioDefault) {
        return size > 0 ? size : scenarioDefault;
    }
}
