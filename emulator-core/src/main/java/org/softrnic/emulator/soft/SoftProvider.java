package org.softrnic.emulator.soft;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.softrnic.verbs.RdmaDevice;
import org.softrnic.verbs.RdmaProvider;

/** The soft provider: every soft RNIC open in this JVM. */
public final class SoftProvider implements RdmaProvider {
    static final String NAME = "soft";
    private static final List<SoftRnic> DEVICES = new CopyOnWriteArrayList<>();

    static void register(SoftRnic d) {
        DEVICES.add(d);
    }

    static void unregister(SoftRnic d) {
        DEVICES.remove(d);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public List<RdmaDevice> devices() {
        return List.copyOf(DEVICES);
    }
}
