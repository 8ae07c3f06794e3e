package org.softrnic.emulator.perf;

import java.util.Map;
import org.softrnic.emulator.soft.SoftRnic;
import org.softrnic.verbs.RdmaContext;

/** The two soft RNICs of a one-process perf run, open, and what their link did. */
interface PerfDevices extends AutoCloseable {
    SoftRnic clientDevice();

    SoftRnic serverDevice();

    RdmaContext client();

    RdmaContext server();

    /** Packets put on the link by both devices. */
    long packets();

    /** Packets the link lost or refused. */
    long dropped();

    String describe();

    default Map<String, Long> clientCounters() {
        return clientDevice().counters();
    }

    default Map<String, Long> serverCounters() {
        return serverDevice().counters();
    }

    @Override
    void close();
}
