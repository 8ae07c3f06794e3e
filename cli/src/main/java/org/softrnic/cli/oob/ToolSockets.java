package org.softrnic.cli.oob;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;

/**
 * The TCP side of rdma-core's and perftest's tools: one client per server on port 18515. The C tools try
 * to connect once; a softrnic client may keep trying while its peer boots. A softrnic server keeps its inline
 * device moving while it waits (it answers ARP only then).
 */
public final class ToolSockets {
    private static final int TICK_MS = 20;
    private static final int BLOCK_EVERY_MS = 100;

    private ToolSockets() {
    }

    /** The server's literal IP address; never a name to look up. */
    public static InetAddress address(String server) {
        try {
            return InetAddress.ofLiteral(server);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("SERVER must be an IP address, not '" + server + "'");
        }
    }

    /** Connects, retrying every 200 ms until {@code endNanos} (System.nanoTime); then "Couldn't connect". */
    public static Socket connect(InetSocketAddress to, long endNanos) throws IOException {
        while (true) {
            Socket s = new Socket(); // a socket whose connect failed cannot try again
            try {
                s.connect(to, 5_000);
                return s;
            } catch (IOException e) {
                s.close();
                if (System.nanoTime() > endNanos) throw new IOException("Couldn't connect to " + to.getHostString() + ":" + to.getPort(), e);
                pause();
            }
        }
    }

    /** A first step on a fresh connection. */
    @FunctionalInterface
    public interface Start<T> {
        T on(Socket s) throws IOException;
    }

    /**
     * Connects and takes the exchange's first step; a peer still coming up can fail it (its neighbour entry
     * flapping, or qemu's forwarder accepting before the guest listens), and as nothing was agreed yet, this
     * closes the socket and tries again until {@code endNanos}. The step owns the socket once it succeeds.
     */
    public static <T> T connectAndStart(InetSocketAddress to, long endNanos, Start<T> first) throws IOException {
        while (true) {
            Socket s = connect(to, endNanos);
            try {
                return first.on(s);
            } catch (IOException e) {
                s.close();
                if (System.nanoTime() > endNanos) throw e;
                pause();
            }
        }
    }

    /** Accepts one client on every address at {@code port}, running {@code progress} while it waits. */
    public static Socket accept(int port, Runnable progress) throws IOException {
        try (ServerSocket listener = new ServerSocket()) {
            listener.setReuseAddress(true);
            listener.bind(new InetSocketAddress(port), 1);
            listener.setSoTimeout(TICK_MS);
            while (true) {
                try {
                    return listener.accept();
                } catch (SocketTimeoutException e) {
                    progress.run();
                }
            }
        }
    }

    /**
     * Reads exactly {@code b.length} bytes from a socket whose SO_TIMEOUT is short (1 ms). A side that waits
     * here (a passive perftest server waits through the whole test) moves its device between cheap checks for
     * data, and blocks only every {@value #BLOCK_EVERY_MS} ms, which is how it sees EOF; blocking more often
     * would stall the device it serves.
     */
    public static void readFully(java.io.InputStream in, byte[] b, Runnable progress) throws IOException {
        int at = 0;
        long nextBlock = System.nanoTime() + BLOCK_EVERY_MS * 1_000_000L;
        while (at < b.length) {
            if (in.available() == 0 && System.nanoTime() < nextBlock) {
                progress.run();
                continue;
            }
            nextBlock = System.nanoTime() + BLOCK_EVERY_MS * 1_000_000L;
            try {
                int n = in.read(b, at, b.length - at);
                if (n < 0) throw new java.io.EOFException("the peer closed the exchange");
                at += n;
            } catch (SocketTimeoutException e) {
                progress.run();
            }
        }
    }

    public static void pause() throws IOException {
        try {
            Thread.sleep(200);
        } catch (InterruptedException ie) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException();
        }
    }
}
