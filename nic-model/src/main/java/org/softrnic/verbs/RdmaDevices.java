package org.softrnic.verbs;

import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;

/** ibv_get_device_list: every device of every provider on the class path. */
public final class RdmaDevices {
    private RdmaDevices() {
    }

    public static List<RdmaDevice> list() {
        List<RdmaDevice> all = new ArrayList<>();
        for (RdmaProvider p : ServiceLoader.load(RdmaProvider.class, RdmaDevices.class.getClassLoader())) {
            all.addAll(p.devices());
        }
        return all;
    }

    /** The device called {@code name}, as ibv_devices lists it; ENODEV when there is none. */
    public static RdmaDevice byName(String name) {
        for (RdmaDevice d : list()) if (d.name().equals(name)) return d;
        throw new VerbsException("ibv_get_device_list", Errno.ENODEV, "no RDMA device named " + name);
    }
}
