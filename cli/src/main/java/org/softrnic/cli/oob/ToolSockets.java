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
    /**
     * How long a side waits for the peer's next message of the exchange, once connected: a peer that accepts
     * and then says nothing is given up on (the waits that last the peer's whole run take --timeout instead).
     */
    public static final int EXCHANGE_SECONDS = 15;

    /** {@link #EXCHANGE_SECONDS}, or -Dsoftrnic.exchange_seconds (tests of silent peers shorten it). */
    public static int exchangeSeconds() {
        return Integer.getInteger("softrnic.exchange_seconds", EXCHANGE_SECONDS);
    }

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
                if (System.nanoTime() > endNanos) throw new IOException("Couldn't connect to " + hostPort(to), e);
                pause();
            }
        }
    }

    /** 127.0.0.1:18515, or [::1]:18515 for IPv6. */
    static String hostPort(InetSocketAddress to) {
        String h = to.getAddress() instanceof java.net.Inet6Address v6 ? ipv6Text(v6.getAddress())
                : to.getAddress() != null ? to.getAddress().getHostAddress() : to.getHostString();
        if (h.contains(":")) h = "[" + h + "]";
        return h + ":" + to.getPort();
    }

    /** An IPv6 address as inet_ntop writes it (RFC 5952): the longest run of two or more zero groups as "::". */
    public static String ipv6Text(byte[] b) {
        int[] w = new int[8];
        for (int i = 0; i < 8; i++) w[i] = (b[2 * i] & 0xff) << 8 | (b[2 * i + 1] & 0xff);
        int bestAt = -1;
        int bestLen = 1; // a single zero group stays as 0, as inet_ntop writes it
        for (int i = 0; i < 8; ) {
            int j = i;
            while (j < 8 && w[j] == 0) j++;
            if (j - i > bestLen) {
                bestAt = i;
                bestLen = j - i;
            }
            i = j == i ? i + 1 : j;
        }
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            if (i == bestAt) {
                out.append("::");
                i += bestLen - 1;
                continue;
            }
            if (out.length() > 0 && out.charAt(out.length() - 1) != ':') out.append(':');
            out.append(Integer.toHexString(w[i]));
        }
        return out.toString();
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

    /**
     * Accepts one client on every address at {@code port}, running {@code progress} while it waits; gives up
     * after {@code timeoutSeconds} (0: never, as the tools).
     */
    public static Socket accept(int port, Runnable progress, int timeoutSeconds) throws IOException {
        long end = deadline(timeoutSeconds);
        try (ServerSocket listener = new ServerSocket()) {
            listener.setReuseAddress(true);
            try {
                listener.bind(new InetSocketAddress(port), 1);
            } catch (java.net.BindException e) {
                java.net.BindException named = new java.net.BindException("-p " + port + ": cannot listen on TCP port " + port + " (" + e.getMessage() + ")");
                named.initCause(e);
                throw named;
            }
            listener.setSoTimeout(TICK_MS);
            while (true) {
                try {
                    return listener.accept();
                } catch (SocketTimeoutException e) {
                    if (System.nanoTime() - end > 0) throw new IOException("no client came within " + timeoutSeconds + " s (--timeout)");
                    progress.run();
                }
            }
        }
    }

    /** System.nanoTime() {@code seconds} from now; 0 seconds: in about 292 years. */
    public static long deadline(int seconds) {
        return System.nanoTime() + (seconds <= 0 ? Long.MAX_VALUE / 2 : seconds * 1_000_000_000L);
    }

    /** {@link #readFully(java.io.InputStream, byte[], Runnable, long)} within {@link #EXCHANGE_SECONDS}. */
    public static void readFully(java.io.InputStream in, byte[] b, Runnable progress) throws IOException {
        readFully(in, b, progress, deadline(exchangeSeconds()));
    }

    /**
     * Reads exactly {@code b.length} bytes from a socket whose SO_TIMEOUT is short (1 ms). A side that waits
     * here (a passive perftest server waits through the whole test) moves its device between cheap checks for
     * data, and blocks only every {@value #BLOCK_EVERY_MS} ms, which is how it sees EOF; blocking more often
     * would stall the device it serves.
     */
    public static void readFully(java.io.InputStream in, byte[] b, Runnable progress, long endNanos) throws IOException {
        int at = 0;
        long start = System.nanoTime();
        long nextBlock = start + BLOCK_EVERY_MS * 1_000_000L;
        while (at < b.length) {
            if (System.nanoTime() - endNanos > 0) {
                throw new SocketTimeoutException("the peer said nothing for " + Math.round((System.nanoTime() - start) / 1e9) + " s");
            }
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
