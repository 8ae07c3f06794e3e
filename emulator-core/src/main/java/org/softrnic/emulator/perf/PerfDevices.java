package org.softrnic.emulator.perf;

import java.util.Map;
import org.softrnic.verbs.RdmaContext;

/** The two devices of a one-process perf run (soft RNICs, or one real device twice), open, and what their link did. */
interface PerfDevices extends AutoCloseable {
    RdmaContext client();

    RdmaContext server();

    /** Packets put on the link by both devices. */
    long packets();

    /** Packets the link lost or refused. */
    long dropped();

    String describe();

    Map<String, Long> clientCounters();

    Map<String, Long> serverCounters();

    /** Moves the server's device when this thread drives it (soft devices with inline progress). */
    default void progressServer() {
    }

    @Override
    void close();
}
