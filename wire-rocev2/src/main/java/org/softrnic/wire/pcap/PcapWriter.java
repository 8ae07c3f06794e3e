package org.softrnic.wire.pcap;

import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;

/** Writes classic pcap (little-endian, microsecond stamps) with Ethernet link type, as Wireshark opens it. */
public final class PcapWriter implements Closeable {
    public static final int SNAPLEN = 262144;
    private final OutputStream out;
    private final ByteBuffer header = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN);

    public PcapWriter(OutputStream out, LinkType linkType) throws IOException {
        this.out = out;
        ByteBuffer h = ByteBuffer.allocate(24).order(ByteOrder.LITTLE_ENDIAN);
        h.putInt(0xa1b2c3d4).putShort((short) 2).putShort((short) 4).putInt(0).putInt(0).putInt(SNAPLEN)
                .putInt(linkType.value);
        out.write(h.array());
    }

    public static PcapWriter create(Path file) throws IOException {
        return new PcapWriter(new BufferedOutputStream(Files.newOutputStream(file)), LinkType.ETHERNET);
    }

    public void write(long timestampNanos, byte[] frame) throws IOException {
        write(timestampNanos, frame, 0, frame.length);
    }

    public void write(long timestampNanos, byte[] frame, int off, int len) throws IOException {
        int caplen = Math.min(len, SNAPLEN);
        header.clear();
        header.putInt((int) (timestampNanos / 1_000_000_000L)).putInt((int) (timestampNanos % 1_000_000_000L / 1000))
                .putInt(caplen).putInt(len);
        out.write(header.array(), 0, 16);
        out.write(frame, off, caplen);
    }

    public void flush() throws IOException {
        out.flush();
    }

    @Override
    public void close() throws IOException {
        out.close();
    }
}
