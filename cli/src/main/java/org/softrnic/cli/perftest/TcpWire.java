package org.softrnic.cli.perftest;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import org.softrnic.cli.oob.ToolSockets;

/**
 * perftest 4.5's TCP exchange: each message goes out in one write (the C side treats a short read as fatal),
 * keys as 108 bytes of text. While a read waits, {@code progress} moves the device (an inline device answers
 * ARP and moves packets only then).
 */
final class TcpWire extends PerftestWire {
    private final Socket socket;
    private final boolean client;
    private final Runnable progress;
    private final InputStream in;
    private final OutputStream out;

    TcpWire(Socket socket, boolean client, Runnable progress) throws IOException {
        this.socket = socket;
        this.client = client;
        this.progress = progress;
        socket.setTcpNoDelay(true);
        socket.setSoTimeout(1);
        this.in = socket.getInputStream();
        this.out = socket.getOutputStream();
    }

    /** One symmetric step: the client writes then reads, the server reads then writes. */
    @Override
    byte[] exchange(byte[] mine, long endNanos) throws IOException {
        byte[] theirs = new byte[mine.length];
        if (client) {
            out.write(mine);
            ToolSockets.readFully(in, theirs, progress, endNanos);
        } else {
            ToolSockets.readFully(in, theirs, progress, endNanos);
            out.write(mine);
        }
        return theirs;
    }

    @Override
    byte[] encode(Key k) {
        return k.toWire();
    }

    @Override
    Key decode(byte[] msg) throws java.net.ProtocolException {
        return Key.fromWire(msg);
    }

    /** "done\0", written by both and read by neither; the peer may have closed already. */
    @Override
    void done() {
        try {
            out.write("done\0".getBytes(StandardCharsets.US_ASCII));
        } catch (IOException e) {
            // the C side closes without reading
        }
    }

    /**
     * Keeps the device answering until the peer closes the connection (or {@code seconds} pass): for a tool
     * with no close handshake, whose peer may still wait for the ACK of its last request.
     */
    @Override
    void lingerUntilClosed(int seconds) {
        try {
            socket.shutdownOutput(); // a softrnic peer lingering too sees EOF at once
        } catch (IOException e) {
            return;
        }
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        byte[] one = new byte[1];
        while (System.nanoTime() < end) {
            try {
                ToolSockets.readFully(in, one, progress, end);
            } catch (IOException e) {
                return; // EOF or reset: the peer is gone
            }
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
