package org.softrnic.emulator.perf;

import org.softrnic.nic.Nic;
import org.softrnic.nic.cq.CompletionQueue;

/** The two devices of a perf run and whatever moves packets and time between them. */
interface PerfLink extends AutoCloseable {
    Nic client();

    Nic server();

    /** Moves packets and timers until {@code clientCq} holds a completion, or nothing more will happen. */
    void progress(CompletionQueue clientCq);

    long packets();

    long dropped();

    String describe();

    @Override
    void close();
}
