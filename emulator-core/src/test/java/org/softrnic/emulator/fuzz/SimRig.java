package org.softrnic.emulator.fuzz;

import java.util.List;
import org.softrnic.nic.Nic;
import org.softrnic.nic.NicConfig;
import org.softrnic.nic.PacketSink;
import org.softrnic.nic.sim.SimFabric;
import org.softrnic.verbs.DeviceAttributes;
import org.softrnic.verbs.Gid;
import org.softrnic.verbs.Mtu;
import org.softrnic.wire.frame.Udp;

/**
 * The in-process fabric in virtual time: one thread, so a run replays exactly from its seed. The devices
 * see whole IP packets, so every header field the fuzzer changes reaches them.
 */
final class SimRig implements FuzzRig {
    /** TEST-NET-2 (RFC 5737): addresses that exist nowhere else. */
    private static final String[] ADDRESSES = {"198.51.100.1", "198.51.100.2"};
    private static final int STRANGER = 0xc6336403; // 198.51.100.3
    private static final long STEP_NANOS = 20_000;

    private final SimFabric fabric;
    private final Nic[] nics = new Nic[2];
    private final long[] received = new long[2];
    private final Ip4 ip4 = new Ip4();

    SimRig(long seed, Recorder sent) {
        fabric = new SimFabric(seed);
        for (int side = 0; side < 2; side++) {
            int s = side;
            nics[side] = fabric.add(new NicConfig("fuzz-" + (char) ('a' + side), List.of(Gid.parse(ADDRESSES[side])),
                    Mtu.MTU_1024, Udp.ROCE_PORT, seed + side, DeviceAttributes.rxeDefaults()));
            PacketSink in = (buf, off, len) -> {
                received[s]++;
                return true;
            };
            nics[side].tap(in, (buf, off, len) -> {
                sent.sent(s, buf, off, len);
                return true;
            });
        }
    }

    @Override
    public Nic nic(int side) {
        return nics[side];
    }

    @Override
    public int ip(int side) {
        return (int) Gid.parse(ADDRESSES[side]).lo();
    }

    @Override
    public int strangerIp() {
        return STRANGER;
    }

    @Override
    public boolean inject(int side, byte[] ip, boolean restamp) {
        if (restamp && ip.length >= Ip4.MIN) ip4.stamp(ip);
        boolean valid = ip4.valid(ip, false);
        fabric.inject(nics[side], ip);
        return valid;
    }

    @Override
    public void pump() {
        long limit = fabric.clock().nanoTime() + STEP_NANOS;
        fabric.run(limit);
        // every event up to the limit has run; an idle fabric leaves its clock behind, and rounds need time to pass
        fabric.clock().advanceTo(Math.max(fabric.clock().nanoTime(), limit));
    }

    @Override
    public long nanoTime() {
        return fabric.clock().nanoTime();
    }

    @Override
    public long received(int side) {
        return received[side];
    }

    @Override
    public boolean seesIpHeader() {
        return true;
    }

    @Override
    public void close() {
    }
}
