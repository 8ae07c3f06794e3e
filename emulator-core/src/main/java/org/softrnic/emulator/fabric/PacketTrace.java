package org.softrnic.emulator.fabric;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.softrnic.nic.PacketSink;
import org.softrnic.wire.PacketBuffer;
import org.softrnic.wire.pcap.LinkType;
import org.softrnic.wire.pcap.PcapWriter;

/**
 * A device's packets, both ways, in a pcap file of raw IP packets (LINKTYPE_RAW, which Wireshark and
 * `softrnic decode` read), through the device's taps ({@link org.softrnic.nic.Nic#tap}). Tracing copies each
 * packet; it is for looking at a run, not for measuring one.
 */
public final class PacketTrace implements AutoCloseable {
    private final PcapWriter writer;
    private final byte[] copy = new byte[65536];
    private final long epochOffset = System.currentTimeMillis() * 1_000_000L - System.nanoTime();
    private final Path file;
    /** The first write that failed: the trace stops there, the device goes on, and close says so. */
    private IOException failure;

    public PacketTrace(Path file) {
        this.file = file;
        try {
            writer = new PcapWriter(new BufferedOutputStream(Files.newOutputStream(file)), LinkType.RAW);
        } catch (IOException e) {
            throw new UncheckedIOException("trace " + file + ": " + e.getMessage(), e);
        }
    }

    private synchronized void record(PacketBuffer buffer, int offset, int length) {
        if (failure != null) return;
        int n = Math.min(length, copy.length);
        java.lang.foreign.MemorySegment.copy(buffer.segment, java.lang.foreign.ValueLayout.JAVA_BYTE, offset, copy, 0, n);
        try {
            writer.write(System.nanoTime() + epochOffset, copy, 0, n);
        } catch (IOException e) {
            failure = e; // a trace that cannot be written must not break the device's run
        }
    }

    /** Each packet the device sends or receives, shown to the trace first. */
    public PacketSink tap() {
        return (buffer, offset, length) -> {
            record(buffer, offset, length);
            return true;
        };
    }

    /** Closes the file; a write that failed, then or before, is an {@link UncheckedIOException} naming the trace. */
    @Override
    public synchronized void close() {
        try {
            writer.close();
        } catch (IOException e) {
            if (failure == null) failure = e;
        }
        if (failure != null) throw new UncheckedIOException("trace " + file + ": cannot write: " + failure.getMessage(), failure);
    }
}
