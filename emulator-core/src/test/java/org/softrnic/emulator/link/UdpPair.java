package org.softrnic.emulator.link;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import org.softrnic.nic.Nic;
import org.softrnic.nic.NicConfig;
import org.softrnic.nic.cq.CompletionQueue;
import org.softrnic.nic.mem.MemoryRegion;
import org.softrnic.nic.qp.QueuePair;
import org.softrnic.verbs.Access;
import org.softrnic.verbs.DeviceAttributes;
import org.softrnic.verbs.Gid;
import org.softrnic.verbs.Mtu;
import org.softrnic.verbs.QpAttr;
import org.softrnic.verbs.QpCaps;
import org.softrnic.verbs.QpType;
import org.softrnic.verbs.WorkCompletion;

/** Two soft RNICs on loopback addresses joined by kernel UDP sockets, driven on the calling thread. */
public final class UdpPair {
    private UdpPair() {}

    /** Changes an outgoing IP packet in place before the socket takes it. */
    @FunctionalInterface
    public interface Corrupt {
        void apply(org.softrnic.wire.PacketBuffer buffer, int offset, int length);
    }

    public record Side(Nic nic, UdpLink link, MemoryRegion mr, CompletionQueue cq, QueuePair qp) {}

    public static Side side(String ip, int port) throws Exception {
        return side(ip, port, port);
    }

    /** A device on {@code ip} whose socket is bound to {@code socketPort} (0: any) and whose packets carry {@code rocePort}. */
    public static Side side(String ip, int socketPort, int rocePort) throws Exception {
        return side(ip, socketPort, rocePort, false, null);
    }

    /**
     * {@code rxeIdentifications}: the device computes its ICRCs for an IPv4 identification that counts up, as
     * rxe's do, while the kernel sends 0; {@code corrupt}, when not null, may change each packet on its way
     * to the socket.
     */
    public static Side side(String ip, int socketPort, int rocePort, boolean rxeIdentifications,
                            Corrupt corrupt) throws Exception {
        InetAddress address = InetAddress.getByName(ip);
        UdpLink link = UdpLink.open(address, socketPort, rocePort);
        org.softrnic.nic.LinkProfile profile = link.profile();
        if (rxeIdentifications) profile = new org.softrnic.nic.LinkProfile(false, profile.udpSourcePort(), profile.ipIdHidden());
        org.softrnic.nic.PacketSink sink = corrupt == null ? link : (buf, off, len) -> {
            corrupt.apply(buf, off, len);
            return link.transmit(buf, off, len);
        };
        Device d = device(ip, rocePort, profile, Mtu.MTU_1024, sink);
        return new Side(d.nic(), link, d.mr(), d.cq(), d.qp());
    }

    /** A device on {@code ip} with 1 MiB registered, a CQ and an RC QP, sending into {@code sink}. */
    public record Device(Nic nic, MemoryRegion mr, CompletionQueue cq, QueuePair qp) {}

    public static Device device(String ip, int rocePort, org.softrnic.nic.LinkProfile profile, Mtu mtu, org.softrnic.nic.PacketSink sink) {
        NicConfig cfg = new NicConfig("soft-" + ip, List.of(Gid.parse(ip)), mtu, rocePort, 1, DeviceAttributes.rxeDefaults(), profile);
        Nic nic = new Nic(cfg, System::nanoTime, sink);
        var pd = nic.allocPd();
        MemorySegment mem = Arena.ofAuto().allocate(1 << 20, 8);
        MemoryRegion mr = nic.regMr(pd, mem, Access.LOCAL_WRITE | Access.REMOTE_ANY);
        CompletionQueue cq = nic.createCq(256);
        QueuePair qp = nic.createQp(pd, QpType.RC, cq, cq, null, QpCaps.of(64, 64), false);
        return new Device(nic, mr, cq, qp);
    }

    public static void connect(Side s, String peer, int peerQpn) {
        s.nic().modifyToRts(s.qp(), QpAttr.rcConnect(Gid.parse(peer), peerQpn, Mtu.MTU_1024));
    }

    /** Moves packets and timers on one thread until {@code wanted} completions reached A's CQ. */
    public static List<WorkCompletion> pump(Side a, Side b, int wanted) {
        List<WorkCompletion> got = new ArrayList<>();
        WorkCompletion[] wcs = {new WorkCompletion(), new WorkCompletion(), new WorkCompletion(), new WorkCompletion()};
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (got.size() < wanted && System.nanoTime() < deadline) {
            boolean moved = a.link().poll(a.nic()) | b.link().poll(b.nic());
            for (Side s : new Side[] {a, b}) if (s.nic().nextDeadline() <= System.nanoTime()) s.nic().runTimers();
            int n = a.cq().poll(wcs);
            for (int i = 0; i < n; i++) got.add(new WorkCompletion().copyFrom(wcs[i]));
            if (!moved && n == 0) Thread.onSpinWait();
        }
        return got;
    }

}
