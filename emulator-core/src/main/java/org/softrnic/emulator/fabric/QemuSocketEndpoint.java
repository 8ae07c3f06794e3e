package org.softrnic.emulator.fabric;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.function.BooleanSupplier;
import java.util.function.IntConsumer;
import org.softrnic.wire.frame.Ethernet;

/**
 * qemu's socket netdev: a TCP stream on 127.0.0.1 in which each Ethernet frame is preceded by its length as
 * 4 bytes big-endian (net/socket.c; qemu pads nothing, so short frames are padded here as a NIC pads them).
 * The stream is symmetric, so two softrnic frame ports, one listening and one connecting, make a link too.
 */
final class QemuSocketEndpoint implements FrameEndpoint {
    private final ServerSocketChannel listener;
    private SocketChannel channel;
    private final SelectorSleep sleep;
    /** Stream bytes received and not yet taken as frames. */
    private final ByteBuffer in = ByteBuffer.allocateDirect(1 << 20);
    /** Bytes to send that the socket has not taken yet. */
    private final ByteBuffer out = ByteBuffer.allocateDirect(4 << 20);
    /** Both buffers whole, from offset 0 (MemorySegment.ofBuffer starts at a buffer's current position). */
    private final MemorySegment inBytes = MemorySegment.ofBuffer(in.duplicate().clear());
    private final MemorySegment outBytes = MemorySegment.ofBuffer(out.duplicate().clear());

    private QemuSocketEndpoint(ServerSocketChannel listener, SocketChannel channel) throws IOException {
        this.listener = listener;
        this.channel = channel;
        this.sleep = new SelectorSleep();
        if (listener != null) listener.register(sleep.selector, SelectionKey.OP_ACCEPT);
        if (channel != null) channel.register(sleep.selector, SelectionKey.OP_READ);
        out.flip(); // empty, ready to be drained
    }

    /** Listens on 127.0.0.1:{@code port} for qemu's {@code -netdev socket,connect=127.0.0.1:PORT}. */
    static QemuSocketEndpoint listen(int port) throws IOException {
        ServerSocketChannel l = ServerSocketChannel.open();
        try {
            l.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            l.bind(new InetSocketAddress(InetAddress.ofLiteral("127.0.0.1"), port), 1);
            l.configureBlocking(false);
            return new QemuSocketEndpoint(l, null);
        } catch (IOException | RuntimeException e) {
            l.close();
            throw e;
        }
    }

    /** Connects to qemu's {@code -netdev socket,listen=127.0.0.1:PORT}. */
    static QemuSocketEndpoint connect(int port) throws IOException {
        SocketChannel c = SocketChannel.open(new InetSocketAddress(InetAddress.ofLiteral("127.0.0.1"), port));
        try {
            c.setOption(StandardSocketOptions.TCP_NODELAY, true);
            c.configureBlocking(false);
            return new QemuSocketEndpoint(null, c);
        } catch (IOException | RuntimeException e) {
            c.close();
            throw e;
        }
    }

    @Override
    public boolean send(MemorySegment s, long at, int length) {
        if (channel == null) return false; // qemu has not connected yet
        int padded = Math.max(length, Ethernet.MIN_FRAME);
        out.compact();
        try {
            if (out.remaining() < 4 + padded) return false;
            out.putInt(padded);
            int p = out.position();
            MemorySegment.copy(s, at, outBytes, p, length);
            for (int i = length; i < padded; i++) out.put(p + i, (byte) 0);
            out.position(p + padded);
        } finally {
            out.flip();
        }
        flush();
        return true;
    }

    private void flush() {
        try {
            while (out.hasRemaining() && channel.write(out) > 0) {
                // the socket takes what it can; the rest waits for the next poll
            }
        } catch (IOException e) {
            out.clear().flip();
        }
    }

    @Override
    public int receive(MemorySegment into, long at, int max, int budget, IntConsumer frame) {
        try {
            if (channel == null) {
                if (listener == null) return 0;
                SocketChannel c = listener.accept();
                if (c == null) return 0;
                c.setOption(StandardSocketOptions.TCP_NODELAY, true);
                c.configureBlocking(false);
                c.register(sleep.selector, SelectionKey.OP_READ);
                channel = c;
            }
            if (out.hasRemaining()) flush();
            if (channel.read(in) < 0) throw new IOException("qemu closed the link");
        } catch (IOException e) {
            throw new UncheckedIOException("frame port: " + e.getMessage(), e);
        }
        in.flip();
        int frames = 0;
        try {
            while (frames < budget && in.remaining() >= 4) {
                int length = in.getInt(in.position());
                if (length < Ethernet.LENGTH || length > max) {
                    throw new UncheckedIOException(new IOException("frame port: a frame of " + length + " bytes; the stream is out of step"));
                }
                if (in.remaining() < 4 + length) break;
                int p = in.position() + 4;
                MemorySegment.copy(inBytes, p, into, at, length);
                in.position(p + length);
                frames++;
                frame.accept(length);
            }
        } finally {
            in.compact();
        }
        return frames;
    }

    @Override
    public void await(long deadline, BooleanSupplier idle) {
        sleep.await(deadline, idle);
    }

    @Override
    public void wakeup() {
        sleep.wakeup();
    }

    @Override
    public void close() {
        try (sleep; var l = listener; var c = channel) {
            // closes every one, even when one fails
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
