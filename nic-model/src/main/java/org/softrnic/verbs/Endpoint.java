package org.softrnic.verbs;

import java.nio.ByteBuffer;

/**
 * What one side of a connection tells the other out of band before its QP can connect, the way NCCL, Ceph
 * and perftest exchange it over TCP: the port's GID, the QPN, the first PSN it will send, its port's active
 * MTU and, when the peer is to reach memory, one region's address, rkey and length. Sent as {@link #toBytes}
 * or {@link #toJson}; {@link QueuePair#connect(Endpoint, Endpoint)} takes the two.
 *
 * @param addr   the region's address as the peer names it (0 when no region is offered)
 * @param rkey   the region's rkey (0 when none)
 * @param length the region's length in bytes (0 when none)
 */
public record Endpoint(Gid gid, int qpn, int psn, Mtu mtu, long addr, int rkey, long length) {
    /** The byte form's length: "SR", version 1, a reserved byte, then the fields in network order. */
    public static final int BYTES = 4 + 16 + 4 + 4 + 2 + 2 + 8 + 4 + 8;
    private static final int VERSION = 1;

    public Endpoint {
        if (gid == null || mtu == null) throw new IllegalArgumentException("an endpoint needs a GID and an MTU");
        if ((qpn & ~0xffffff) != 0) throw new IllegalArgumentException("QPN must be 24 bits, not 0x" + Integer.toHexString(qpn));
        if ((psn & ~0xffffff) != 0) throw new IllegalArgumentException("PSN must be 24 bits, not 0x" + Integer.toHexString(psn));
        if (length < 0) throw new IllegalArgumentException("a region's length cannot be negative: " + length);
    }

    /**
     * This side's endpoint for {@code qp}: GID index 0 of port 1, the port's active MTU, and a first PSN drawn
     * from the QPN (so that a run replays; perftest draws it at random, see {@link #of(RdmaContext, QueuePair, int, int)}).
     */
    public static Endpoint of(RdmaContext context, QueuePair qp) {
        return of(context, qp, 0, psnFor(qp.qpn()));
    }

    /** This side's endpoint with GID index {@code gidIndex} of port 1 and first PSN {@code psn}. */
    public static Endpoint of(RdmaContext context, QueuePair qp, int gidIndex, int psn) {
        return new Endpoint(context.queryGid(1, gidIndex), qp.qpn(), psn & 0xffffff, context.queryPort(1).activeMtu(), 0, 0, 0);
    }

    /** The same endpoint offering {@code mr} to the peer (its address, rkey and length). */
    public Endpoint withRegion(MemoryRegion mr) {
        return new Endpoint(gid, qpn, psn, mtu, mr.addr(), mr.rkey(), mr.length());
    }

    /** A 24-bit PSN from a QPN, different for neighbouring QPNs (a multiplicative hash). */
    static int psnFor(int qpn) {
        return (qpn * 0x9e3779b1 >>> 8) & 0xffffff;
    }

    public byte[] toBytes() {
        ByteBuffer b = ByteBuffer.allocate(BYTES);
        b.put((byte) 'S').put((byte) 'R').put((byte) VERSION).put((byte) 0);
        b.put(gid.raw()).putInt(qpn).putInt(psn).putShort((short) mtu.bytes).putShort((short) 0);
        b.putLong(addr).putInt(rkey).putLong(length);
        return b.array();
    }

    /** Reads {@link #toBytes}'s form; anything else is an IllegalArgumentException that says what is wrong. */
    public static Endpoint fromBytes(byte[] bytes) {
        if (bytes == null || bytes.length != BYTES) {
            throw new IllegalArgumentException("an endpoint is " + BYTES + " bytes, not " + (bytes == null ? "null" : bytes.length));
        }
        ByteBuffer b = ByteBuffer.wrap(bytes);
        if (b.get() != 'S' || b.get() != 'R') throw new IllegalArgumentException("not a softrnic endpoint (no \"SR\" at its start)");
        int version = b.get() & 0xff;
        if (version != VERSION) throw new IllegalArgumentException("endpoint version " + version + "; this softrnic reads " + VERSION);
        b.get();
        byte[] raw = new byte[16];
        b.get(raw);
        int qpn = b.getInt();
        int psn = b.getInt();
        int mtu = b.getShort() & 0xffff;
        b.getShort();
        return new Endpoint(Gid.of(raw), qpn, psn, Mtu.ofBytes(mtu), b.getLong(), b.getInt(), b.getLong());
    }

    /** {"gid":"::ffff:10.0.0.1","qpn":17,"psn":4660,"mtu":4096,"addr":0,"rkey":0,"length":0} */
    public String toJson() {
        return String.format(java.util.Locale.ROOT, "{\"gid\":\"%s\",\"qpn\":%d,\"psn\":%d,\"mtu\":%d,\"addr\":%d,\"rkey\":%d,\"length\":%d}", gid, qpn, psn,
                mtu.bytes, addr, Integer.toUnsignedLong(rkey), length);
    }

    /** Reads {@link #toJson}'s form (keys in any order, all of them required, no others). */
    public static Endpoint fromJson(String json) {
        var f = EndpointJson.parse(json);
        long rkey = f.number("rkey");
        if (rkey < 0 || rkey > 0xffffffffL) throw new IllegalArgumentException("rkey must be 32 bits, not " + rkey);
        long mtu = f.number("mtu");
        if (mtu < 0 || mtu > 4096) throw new IllegalArgumentException("mtu must be 256, 512, 1024, 2048 or 4096, not " + mtu);
        return new Endpoint(Gid.parse(f.text("gid")), f.int24("qpn"), f.int24("psn"), Mtu.ofBytes((int) mtu),
                f.number("addr"), (int) rkey, f.number("length"));
    }
}
