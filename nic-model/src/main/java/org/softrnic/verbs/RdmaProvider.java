package org.softrnic.verbs;

import java.util.List;

/** A source of RDMA devices, found through {@link java.util.ServiceLoader} by {@link RdmaDevices}. */
public interface RdmaProvider {
    /** A short name: "soft" for softrnic, "ibverbs" for libibverbs. */
    String name();

    /** The devices this provider can open now. */
    List<RdmaDevice> devices();
}
