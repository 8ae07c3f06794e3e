package org.softrnic.cli.perftest;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.softrnic.cli.oob.ToolSockets;
import org.softrnic.verbs.Gid;

/**
 * perftest 4.5's exchange between the two sides: every step is symmetric, the client writes first and the
 * server answers with the same length. Over TCP ({@link TcpWire}) keys travel as text; over an RC connection
 * the RDMA CM made ({@link CmWire}, -R) as the binary struct pingpong_dest.
 */
abstract class PerftestWire implements AutoCloseable {
    static final int KEY_BYTES = 108;
    /** struct pingpong_dest as rdma_write_keys sends it: every field big-endian, 4 bytes of padding after rkey. */
    static final int DEST_BYTES = 56;
    /** What perftest 4.5 calls itself; below 5.70 the C tools give up. */
    static final String VERSION = "6.06";

    /** One side's connection data: LID:OUT_READS:QPN:PSN:RKEY:VADDR:GID:SRQN. */
    record Key(int lid, int outReads, int qpn, int psn, int rkey, long vaddr, Gid gid, int srqn) {
        byte[] toWire() {
            StringBuilder sb = new StringBuilder(String.format("%04x:%04x:%06x:%06x:%08x:%016x:", lid, outReads, qpn, psn, rkey, vaddr));
            for (byte b : gid.raw()) sb.append(String.format("%02x:", b & 0xff));
            sb.append(String.format("%08x:", srqn));
            byte[] out = new byte[KEY_BYTES];
            byte[] t = sb.toString().getBytes(StandardCharsets.US_ASCII);
            System.arraycopy(t, 0, out, 0, Math.min(t.length, KEY_BYTES - 1));
            return out;
        }

        /** The peer's key message; anything else is the peer's fault, named with its bytes escaped. */
        static Key fromWire(byte[] msg) throws java.net.ProtocolException {
            String text = new String(msg, StandardCharsets.US_ASCII).replace("\0", "");
            try {
                return parse(text);
            } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
                throw new java.net.ProtocolException("the peer sent " + org.softrnic.cli.Printable.quote(text) + ", not a perftest key message");
            }
        }

        /** rdma_write_keys: the struct's bytes, big-endian, with the GID index perftest keeps beside the GID. */
        byte[] toDest(int gidIndex) {
            return java.nio.ByteBuffer.allocate(DEST_BYTES).putInt(lid).putInt(outReads).putInt(qpn).putInt(psn).putInt(rkey).putInt(0)
                    .putLong(vaddr).put(gid.raw()).putInt(srqn).putInt(gidIndex).array();
        }

        /** rdma_read_keys: the fields it converts (srqn is left as it was: 0). */
        static Key fromDest(byte[] m) {
            java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(m);
            int lid = b.getInt(), outReads = b.getInt(), qpn = b.getInt(), psn = b.getInt(), rkey = b.getInt();
            b.getInt();
            long vaddr = b.getLong();
            byte[] gid = new byte[16];
            b.get(gid);
            return new Key(lid, outReads, qpn, psn, rkey, vaddr, Gid.of(gid), 0);
        }

        /** All zeros: what create_rdma_cm_connection's barriers carry (my_dest before set_up_connection). */
        static final Key ZERO = new Key(0, 0, 0, 0, 0, 0, Gid.of(new byte[16]), 0);

        private static Key parse(String text) {
            String[] f = text.split(":");
            if (f.length < 23) throw new IllegalArgumentException("not a perftest key message");
            byte[] gid = new byte[16];
            for (int i = 0; i < 16; i++) gid[i] = (byte) Integer.parseInt(f[6 + i], 16);
            return new Key(Integer.parseInt(f[0], 16), Integer.parseInt(f[1], 16), Integer.parseInt(f[2], 16),
                    Integer.parseInt(f[3], 16), (int) Long.parseLong(f[4], 16), Long.parseUnsignedLong(f[5], 16),
                    Gid.of(gid), (int) Long.parseLong(f[22], 16));
        }
    }

    /** One symmetric step, the peer's answer by {@code endNanos}. */
    abstract byte[] exchange(byte[] mine, long endNanos) throws IOException;

    byte[] exchange(byte[] mine) throws IOException {
        return exchange(mine, ToolSockets.deadline(ToolSockets.exchangeSeconds()));
    }

    /** A key message as this exchange carries it, and back. */
    abstract byte[] encode(Key k);

    abstract Key decode(byte[] msg) throws java.net.ProtocolException;

    Key exchangeKey(Key mine) throws IOException {
        return decode(exchange(encode(mine)));
    }

    /** A barrier the peer reaches only after its run (a passive server waits through the client's test). */
    Key exchangeKeyAfterRun(Key mine, int timeoutSeconds) throws IOException {
        return decode(exchange(encode(mine), ToolSockets.deadline(timeoutSeconds)));
    }

    /** "6.06" and 12 NULs each way; an older peer is refused, as the tools refuse one. */
    void exchangeVersion() throws IOException {
        exchangeVersion(ToolSockets.exchangeSeconds());
    }

    /**
     * The first step, for a server: a connection may come before its client speaks (qemu's forwarder connects
     * while the guest still boots), so the wait is the server's wait for a client, {@code timeoutSeconds}.
     */
    void exchangeVersion(int timeoutSeconds) throws IOException {
        byte[] v = new byte[16];
        System.arraycopy(VERSION.getBytes(StandardCharsets.US_ASCII), 0, v, 0, VERSION.length());
        String theirs = new String(exchange(v, ToolSockets.deadline(timeoutSeconds)), StandardCharsets.US_ASCII).replace("\0", "").trim();
        if (!theirs.matches("\\d{1,3}\\.\\d{1,3}")) {
            throw new IOException("the peer's perftest version is " + org.softrnic.cli.Printable.quote(theirs));
        }
        double version = Double.parseDouble(theirs);
        if (version < 5.70) throw new IOException("the peer runs perftest " + org.softrnic.cli.Printable.quote(theirs) + "; 5.70 or later is needed");
    }

    /** Page size and L1 cache line size, each as a big-endian int: 4096 and 64. */
    void exchangeSysData() throws IOException {
        exchange(ByteBuffer.allocate(4).putInt(4096).array());
        exchange(ByteBuffer.allocate(4).putInt(64).array());
    }

    /** The ibv_mtu enum as one digit and a NUL; each side keeps the smaller. */
    int exchangeMtu(int mineEnum) throws IOException {
        byte[] theirs = exchange(new byte[] {(byte) ('0' + mineEnum), 0});
        int rem = theirs[0] - '0';
        return rem >= 1 && rem <= 5 && rem < mineEnum ? rem : mineEnum;
    }

    long exchangeLong(long mine) throws IOException {
        return ByteBuffer.wrap(exchange(ByteBuffer.allocate(8).putLong(mine).array())).getLong();
    }

    double exchangeDouble(double mine) throws IOException {
        return ByteBuffer.wrap(exchange(ByteBuffer.allocate(8).putDouble(mine).array())).getDouble();
    }

    /** The end of the exchange: TCP writes "done"; over the RDMA CM nothing is sent. */
    abstract void done();

    /** Keeps the device answering until the peer has gone (or {@code seconds} pass), for a tool with no close handshake. */
    abstract void lingerUntilClosed(int seconds);

    @Override
    public abstract void close() throws IOException;
}
