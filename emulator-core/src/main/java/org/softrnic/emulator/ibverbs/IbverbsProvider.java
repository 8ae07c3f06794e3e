package org.softrnic.emulator.ibverbs;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import org.softrnic.verbs.Errno;
import org.softrnic.verbs.RdmaDevice;
import org.softrnic.verbs.RdmaProvider;
import org.softrnic.verbs.VerbsException;

/**
 * Real RDMA devices (hardware, rxe, siw) through libibverbs, loaded at run time over FFM. Listing finds none
 * when the library or the kernel's RDMA subsystem is missing; {@link #require} says which.
 */
public final class IbverbsProvider implements RdmaProvider {
    static final String NAME = "ibverbs";

    @Override
    public String name() {
        return NAME;
    }

    /** The devices libibverbs lists; none when it cannot list any (see {@link #require} for why). */
    @Override
    public List<RdmaDevice> devices() {
        try {
            return require();
        } catch (VerbsException e) {
            return List.of();
        }
    }

    /**
     * ibv_get_device_list: every device, or a VerbsException in plain words: no library, no RDMA subsystem in
     * the kernel (ENOSYS), or no device (ENODEV).
     */
    public static List<RdmaDevice> require() {
        List<RdmaDevice> found = new ArrayList<>();
        withDeviceList((name, device) -> found.add(new IbvDevice(name, Long.reverseBytes(
                (long) IbvLib.call(IbvLib.get().getDeviceGuid, device)))));
        if (found.isEmpty()) {
            throw new VerbsException("ibv_get_device_list", Errno.ENODEV, "libibverbs found no RDMA device"
                    + " (none is configured: for Soft-RoCE, `rdma link add rxe0 type rxe netdev eth0`)");
        }
        return found;
    }

    /**
     * The device called {@code name}, or the first one listed when {@code name} is null; a VerbsException
     * from ibv_get_device_list, naming the devices there are, when none has that name.
     */
    public static RdmaDevice device(String name) {
        List<RdmaDevice> all = require();
        if (name == null) return all.getFirst();
        for (RdmaDevice d : all) if (d.name().equals(name)) return d;
        throw new VerbsException("ibv_get_device_list", Errno.ENODEV, "no RDMA device named " + name + "; libibverbs lists "
                + all.stream().map(RdmaDevice::name).toList());
    }

    /** The device called {@code name}, opened; ENODEV when libibverbs lists none of that name. */
    static MemorySegment open(String name) {
        MemorySegment[] context = new MemorySegment[1];
        withDeviceList((n, device) -> {
            if (n.equals(name)) context[0] = IbvLib.created("ibv_open_device", "opening " + name, IbvLib.get().openDevice, device);
        });
        if (context[0] == null) throw new VerbsException("ibv_open_device", Errno.ENODEV, "libibverbs lists no device named " + name);
        return context[0];
    }

    interface DeviceVisitor {
        void visit(String name, MemorySegment device);
    }

    /** Lists the devices, shows each to {@code visitor}, and frees the list (opened contexts stay valid). */
    private static void withDeviceList(DeviceVisitor visitor) {
        IbvLib lib = IbvLib.get();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment count = arena.allocate(JAVA_INT);
            MemorySegment list = (MemorySegment) IbvLib.call(lib.getDeviceList, count);
            if (list.address() == 0) {
                int errno = IbvLib.errno();
                if (errno == Errno.ENOSYS.value) {
                    throw new VerbsException("ibv_get_device_list", errno, "this kernel has no RDMA subsystem"
                            + " (no /sys/class/infiniband_verbs): load a driver, e.g. `modprobe rdma_rxe`, or use the soft provider");
                }
                throw IbvLib.failed("ibv_get_device_list", errno, "listing RDMA devices");
            }
            try {
                int n = count.get(JAVA_INT, 0);
                MemorySegment devices = list.reinterpret((long) (n + 1) * ADDRESS.byteSize());
                for (int i = 0; i < n; i++) {
                    MemorySegment device = devices.getAtIndex(ADDRESS, i).reinterpret(org.softrnic.emulator.rdmacore.RdmaCoreLayout.DEVICE_NAME + 64);
                    visitor.visit(device.getString(org.softrnic.emulator.rdmacore.RdmaCoreLayout.DEVICE_NAME), device);
                }
            } finally {
                IbvLib.call(lib.freeDeviceList, list);
            }
        }
    }
}
