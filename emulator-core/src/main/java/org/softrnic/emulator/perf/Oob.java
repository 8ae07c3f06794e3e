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

    <T> T receive(Class<T> type) throws IOException {
        String line = in.readLine();
        if (line == null) throw new IOException("the peer closed the out-of-band connection");
        return JSON.readValue(line, type);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
