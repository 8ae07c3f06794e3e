package org.softrnic.emulator.perf;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * The out-of-band channel of a two-process run, as perftest has one (TCP, port 18515 by default): one JSON
 * object a line each way.
 */
final class Oob implements AutoCloseable {
    static final int DEFAULT_PORT = 18515;
    private static final ObjectMapper JSON = JsonMapper.builder().build();

    /** The client's request: the run to set up, and its own end. */
    record Hello(PerfOp op, int size, int iters, int qps, int mtu, int txDepth, long seed, boolean verify, PerfEndpoint endpoint) {}

    /** The server's answer: its end, or why it cannot serve. */
    record Welcome(PerfEndpoint endpoint, String error) {}

    /** The client is done; the server answers with its verification and counters. */
    record Done(long completed) {}

    record Report(Boolean verified, java.util.Map<String, Long> counters) {}

    private final Socket socket;
    private final BufferedReader in;
    private final OutputStream out;

    Oob(Socket socket) throws IOException {
        this.socket = socket;
        socket.setTcpNoDelay(true);
        this.in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
        this.out = socket.getOutputStream();
    }

    void send(Object message) throws IOException {
        out.write((JSON.writeValueAsString(message) + "\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    /**
     * The next message, which must be a {@code type} with its fields; anything else (not JSON, another shape,
     * null, missing fields) is the peer's fault, said without echoing its bytes.
     */
    <T> T receive(Class<T> type) throws IOException {
        String line = readLine();
        if (line == null) throw new IOException(peer() + " closed the out-of-band connection");
        T value;
        try {
            value = JSON.readValue(line, type);
        } catch (RuntimeException e) {
            value = null; // Jackson's message quotes the peer's bytes
        }
        if (value == null || !complete(value)) {
            throw new java.net.ProtocolException(peer() + " sent " + line.length() + " bytes that are not a perf "
                    + type.getSimpleName().toLowerCase(java.util.Locale.ROOT) + " message");
        }
        return value;
    }

    /** A message is far smaller than this; a peer that sends more without a newline is not a perf peer. */
    static final int MAX_LINE = 64 * 1024;

    /** One line, at most {@link #MAX_LINE} characters; null at the end of the stream. */
    private String readLine() throws IOException {
        StringBuilder sb = new StringBuilder();
        try {
            for (int c; (c = in.read()) != '\n'; ) {
                if (c < 0) return sb.isEmpty() ? null : sb.toString();
                if (sb.length() >= MAX_LINE) throw new java.net.ProtocolException(peer() + " sent a line of over " + MAX_LINE + " bytes");
                sb.append((char) c);
            }
        } catch (java.net.SocketTimeoutException e) {
            throw new IOException(peer() + " said nothing for " + socket.getSoTimeout() / 1000 + " s", e);
        }
        return sb.toString();
    }

    /** The fields each message cannot do without. */
    private static boolean complete(Object m) {
        return switch (m) {
            case Hello h -> h.op() != null && complete(h.endpoint());
            case Welcome w -> w.error() != null || complete(w.endpoint());
            case Report r -> r.counters() != null && r.counters().values().stream().allMatch(java.util.Objects::nonNull);
            case Done d -> true;
            default -> false;
        };
    }

    private static boolean complete(PerfEndpoint e) {
        return e != null && e.gid() != null && e.qpns() != null && e.addrs() != null && e.rkeys() != null
                && e.qpns().size() == e.addrs().size() && e.qpns().size() == e.rkeys().size()
                && e.qpns().stream().allMatch(java.util.Objects::nonNull) && e.addrs().stream().allMatch(java.util.Objects::nonNull)
                && e.rkeys().stream().allMatch(java.util.Objects::nonNull);
    }

    /** The other end, as messages name it. */
    String peer() {
        return "the peer " + socket.getInetAddress().getHostAddress() + ":" + socket.getPort();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
