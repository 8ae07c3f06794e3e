package org.softrnic.verbs;

/** One RDMA device (struct ibv_device): a name to list and a context to open. */
public interface RdmaDevice {
    /** As ibv_get_device_name gives it, e.g. "softrnic0" or "rxe0". */
    String name();

    /** The provider's short name ({@link RdmaProvider#name()}). */
    String provider();

    /** The node GUID, host order. */
    long guid();

    /** ibv_open_device. */
    RdmaContext open();
}
