package org.softrnic.cli.rping;

import java.io.PrintWriter;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import org.softrnic.cli.RunFailure;
import org.softrnic.verbs.SendOpcode;
import org.softrnic.verbs.WcOpcode;
import org.softrnic.verbs.WcStatus;
import org.softrnic.verbs.WorkCompletion;
import org.softrnic.verbs.cm.CmEvent;
import org.softrnic.verbs.cm.CmEventType;
import org.softrnic.verbs.cm.CmId;
import org.softrnic.verbs.cm.ConnParam;
import org.softrnic.verbs.cm.EventChannel;
import org.softrnic.verbs.cm.PortSpace;
import org.softrnic.verbs.cm.RdmaCm;
import org.softrnic.wire.mad.RejReason;

/**
 * What librdmacm's rping does, on the RDMA CM: the client SENDs where its start buffer is, the server READs
 * it, says go ahead, the client SENDs where its RDMA buffer is, the server WRITEs the data back and says go
 * ahead again; -V compares, -v prints. One thread: each wait polls the CQ and the CM's events in turn, as
 * rping's CQ and CM threads between them wake its main thread.
 */
final class Rping {
    /** rping's client states, by their numbers (DISCONNECTED is 10, as "wait for ... state 10" prints it). */
    enum State { ZERO, IDLE, CONNECT_REQUEST, ADDR_RESOLVED, ROUTE_RESOLVED, CONNECTED, RDMA_READ_ADV, RDMA_READ_COMPLETE,
        RDMA_WRITE_ADV, RDMA_WRITE_COMPLETE, DISCONNECTED, ERROR }

    record Options(boolean server, InetAddress address, InetAddress source, int port, int size, int count, boolean verbose,
                   boolean validate, boolean debug, boolean persistent, int waitSeconds) {}

    static final String MSG = "rdma-ping-%d: ";
    private static final Duration RESOLVE = Duration.ofMillis(2000);

    private final Options o;
    private final PrintWriter out;
    private final PrintWriter err;
    private EventChannel channel;
    private State state = State.IDLE;
    /** -P: connection requests that came while another connection was served, in order. */
    private final java.util.ArrayDeque<CmEvent> waiting = new java.util.ArrayDeque<>();

    Rping(Options o, PrintWriter out, PrintWriter err) {
        this.o = o;
        this.out = out;
        this.err = err;
    }

    int run() throws InterruptedException {
        try (EventChannel ch = RdmaCm.createEventChannel()) {
            channel = ch;
            return o.server() ? server() : client();
        }
    }

    // ---- the server

    private int server() throws InterruptedException {
        CmId listener = channel.createId(PortSpace.TCP);
        try {
            InetAddress at = o.address() != null ? o.address() : InetAddress.getByAddress(new byte[4]);
            listener.bind(new InetSocketAddress(at, o.port()));
            listener.listen(3);
            do {
                CmEvent req = waiting.isEmpty() ? event(o.waitSeconds() > 0 ? Duration.ofSeconds(o.waitSeconds()) : null)
                        : waiting.removeFirst();
                if (req == null) throw new RunFailure("no client connected within --timeout " + o.waitSeconds() + " s");
                if (req.type() != CmEventType.CONNECT_REQUEST) {
                    err.printf("wait for CONNECT_REQUEST state %d%n", state.ordinal());
                    return 1;
                }
                state = State.CONNECT_REQUEST;
                int status;
                try (RpingConnection c = new RpingConnection(req.id(), o.size(), false)) {
                    c.postRecv();
                    c.id.accept(null);
                    CmEvent est = event(Duration.ofSeconds(60));
                    while (est != null && est.type() == CmEventType.CONNECT_REQUEST) { // another client, for later
                        waiting.add(est);
                        est = event(Duration.ofSeconds(60));
                    }
                    if (est == null || est.type() != CmEventType.ESTABLISHED) return failed(est);
                    state = State.CONNECTED;
                    status = serve(c);
                    if (state == State.DISCONNECTED) c.id.disconnect(); // the DREP
                }
                if (status != 0) {
                    err.printf("rping server failed: %d%n", status);
                    return 1;
                }
                state = State.IDLE;
            } while (o.persistent());
            return 0;
        } catch (java.net.UnknownHostException e) {
            throw new AssertionError(e);
        } finally {
            // requests never served are refused (REJ 28) and their ids go, before the listener
            for (CmEvent w : waiting) {
                try {
                    w.id().reject(null);
                } catch (org.softrnic.verbs.VerbsException e) {
                    // the peer gave up first (its REJ or timeout moved the id on): nothing left to refuse
                }
                w.id().close();
            }
            listener.close();
        }
    }

    /** rping_test_server: until the client disconnects. */
    private int serve(RpingConnection c) throws InterruptedException {
        while (true) {
            await(c, State.RDMA_READ_ADV);
            if (state != State.RDMA_READ_ADV) return waitFailed("RDMA_READ_ADV");
            RpingConnection.Info info = c.receivedInfo();
            debug("server received sink adv");
            c.rdma(SendOpcode.RDMA_READ, info, info.length());
            await(c, State.RDMA_READ_COMPLETE);
            if (state != State.RDMA_READ_COMPLETE) return waitFailed("RDMA_READ_COMPLETE");
            if (o.verbose()) out.printf("server ping data: %s%n", RpingConnection.string(c.rdmaMr));
            c.sendInfo(null, 0);
            await(c, State.RDMA_WRITE_ADV);
            if (state != State.RDMA_WRITE_ADV) return waitFailed("RDMA_WRITE_ADV");
            info = c.receivedInfo();
            c.rdma(SendOpcode.RDMA_WRITE, info, RpingConnection.string(c.rdmaMr).length() + 1);
            await(c, State.RDMA_WRITE_COMPLETE);
            if (state != State.RDMA_WRITE_COMPLETE) return waitFailed("RDMA_WRITE_COMPLETE");
            c.sendInfo(null, 0);
            out.flush();
        }
    }

    /**
     * A wait that ended in another state: rping says so even at its normal end ("wait for RDMA_READ_ADV state
     * 10" when the client disconnected), and that end is a success.
     */
    private int waitFailed(String waitedFor) {
        err.printf("wait for %s state %d%n", waitedFor, state.ordinal());
        err.flush();
        return state == State.DISCONNECTED ? 0 : -1;
    }

    // ---- the client

    /** --wait S: a refused or unanswered connection is tried again, with a new id, while S seconds last. */
    private int client() throws InterruptedException {
        long end = System.nanoTime() + o.waitSeconds() * 1_000_000_000L;
        while (true) {
            retryable = false;
            int status = connectAndPing();
            if (status == 0 || !retryable || System.nanoTime() - end >= 0) return status;
            debug("connecting again: --wait " + o.waitSeconds() + " s has not run out");
            Thread.sleep(1000);
            state = State.IDLE;
        }
    }

    /** Set when the last attempt failed in a way a later one may not: REJECTED, UNREACHABLE. */
    private boolean retryable;

    private int connectAndPing() throws InterruptedException {
        CmId id = channel.createId(PortSpace.TCP);
        RpingConnection c = null;
        try {
            id.resolveAddr(o.source() == null ? null : new InetSocketAddress(o.source(), 0),
                    new InetSocketAddress(o.address(), o.port()), RESOLVE);
            // the kernel's resolution ends in ADDR_ERROR after RESOLVE at most; its event may come later than that
            // on a loaded host (rping waits on its event thread without a bound)
            CmEvent e = event(RESOLVE.plusSeconds(30));
            if (e == null || e.type() != CmEventType.ADDR_RESOLVED) return failed(e);
            state = State.ADDR_RESOLVED;
            id.resolveRoute(RESOLVE);
            e = event(RESOLVE.plusSeconds(30));
            if (e == null || e.type() != CmEventType.ROUTE_RESOLVED) return failed(e);
            state = State.ROUTE_RESOLVED;
            c = new RpingConnection(id, o.size(), true);
            c.postRecv();
            // rping_init_conn_param: one READ each way, 7 retries, 7 RNR retries
            id.connect(ConnParam.DEFAULT.withDepths(1, 1));
            // a REQ nobody answers is sent 16 times over 98 s before UNREACHABLE: the CM bounds this wait
            e = event(Duration.ofSeconds(120));
            if (e == null || e.type() != CmEventType.ESTABLISHED) return failed(e);
            state = State.CONNECTED;
            int status = ping(c);
            id.disconnect();
            if (state != State.DISCONNECTED) {
                CmEvent d = event(Duration.ofSeconds(10));
                if (d != null && d.type() == CmEventType.DISCONNECTED) state = State.DISCONNECTED;
            }
            if (status != 0) err.printf("rping client failed: %d%n", status);
            return status == 0 ? 0 : 1;
        } finally {
            if (c != null) c.close();
            else id.close();
        }
    }

    /** rping_test_client. */
    private int ping(RpingConnection c) throws InterruptedException {
        int start = 65;
        int size = o.size();
        MemorySegment buf = c.startMr.segment();
        for (int ping = 0; o.count() == 0 || ping < o.count(); ping++) {
            state = State.RDMA_READ_ADV;
            byte[] head = String.format(MSG, ping).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
            int cc = Math.min(head.length, size - 1);
            MemorySegment.copy(head, 0, buf, ValueLayout.JAVA_BYTE, 0, cc);
            int ch = start;
            for (int i = cc; i < size; i++) {
                buf.set(ValueLayout.JAVA_BYTE, i, (byte) ch);
                if (++ch > 122) ch = 65;
            }
            if (++start > 122) start = 65;
            buf.set(ValueLayout.JAVA_BYTE, size - 1, (byte) 0);
            c.sendInfo(c.startMr, size);
            await(c, State.RDMA_WRITE_ADV);
            if (state != State.RDMA_WRITE_ADV) return waitFailed("RDMA_WRITE_ADV");
            c.sendInfo(c.rdmaMr, size);
            await(c, State.RDMA_WRITE_COMPLETE);
            if (state != State.RDMA_WRITE_COMPLETE) return waitFailed("RDMA_WRITE_COMPLETE");
            if (o.validate() && buf.mismatch(c.rdmaMr.segment()) != -1) {
                err.println("data mismatch!");
                return -1;
            }
            if (o.verbose()) out.printf("ping data: %s%n", RpingConnection.string(c.rdmaMr));
            out.flush();
        }
        return 0;
    }

    // ---- waits

    /**
     * Polls the CQ and the CM until the state moves (rping's sem_wait): a receive, a READ's or WRITE's
     * completion, or DISCONNECTED. A completion in error ends the run, as rping's CQ thread ends it.
     */
    private void await(RpingConnection c, State next) throws InterruptedException {
        WorkCompletion[] wc = {new WorkCompletion()};
        State before = state;
        long end = System.nanoTime() + Duration.ofSeconds(o.server() ? 3600 : 60).toNanos();
        while (state == before && System.nanoTime() - end < 0) {
            while (c.cq.poll(wc) == 1) {
                WorkCompletion w = wc[0];
                if (w.status == WcStatus.WR_FLUSH_ERR) continue; // the QP went to ERROR at the disconnect: rping skips these
                if (w.status != WcStatus.SUCCESS) {
                    throw new RunFailure(String.format("cq completion failed status %d (%s)", w.status.value, w.status.ibvName()));
                }
                if (w.opcode == WcOpcode.RECV) {
                    if (w.byteLen != RpingConnection.INFO) throw new RunFailure("Received bogus data, size " + w.byteLen);
                    // server_recv and client_recv: which advertisement this was follows from the state
                    state = o.server() ? (state.ordinal() <= State.CONNECTED.ordinal() || state == State.RDMA_WRITE_COMPLETE
                            ? State.RDMA_READ_ADV : State.RDMA_WRITE_ADV)
                            : state == State.RDMA_READ_ADV ? State.RDMA_WRITE_ADV : State.RDMA_WRITE_COMPLETE;
                    c.postRecv();
                } else if (w.opcode == WcOpcode.RDMA_READ) {
                    state = State.RDMA_READ_COMPLETE;
                } else if (w.opcode == WcOpcode.RDMA_WRITE) {
                    state = State.RDMA_WRITE_COMPLETE;
                }
            }
            if (state != before) break;
            CmEvent e = channel.getEvent(Duration.ZERO);
            if (e != null) {
                if (e.type() == CmEventType.DISCONNECTED) {
                    err.printf("%s DISCONNECT EVENT...%n", o.server() ? "server" : "client");
                    state = State.DISCONNECTED;
                } else if (e.type() == CmEventType.CONNECT_REQUEST) {
                    // another client while one is served: -P serves it next; without -P, rping's listener is gone
                    if (o.persistent()) {
                        waiting.add(e);
                    } else {
                        e.id().reject(null);
                        e.id().close();
                    }
                } else {
                    debug("cma_event type " + e.type());
                }
            } else {
                Thread.onSpinWait();
            }
        }
        if (state == before) throw new RunFailure("the peer went silent: no " + next + " within the wait");
    }

    /** The next CM event (null: none within {@code max}; null max: for ever); -d prints it. */
    private CmEvent event(Duration max) throws InterruptedException {
        CmEvent e = channel.getEvent(max == null ? Duration.ofDays(365) : max);
        if (e != null) debug("cma_event type " + e.type() + (e.status() != 0 ? " status " + e.status() : ""));
        if (e != null && e.type() == CmEventType.DISCONNECTED) {
            err.printf("%s DISCONNECT EVENT...%n", o.server() ? "server" : "client");
            state = State.DISCONNECTED;
        }
        return e;
    }

    /** rping's cma event handler on an error event: the event and its status; softrnic says the reason in words. */
    private int failed(CmEvent e) {
        if (e == null) throw new RunFailure("no answer from the RDMA CM in time");
        err.printf("cma event %s, error %d%n", e.type(), e.status());
        retryable = e.type() == CmEventType.REJECTED || e.type() == CmEventType.UNREACHABLE;
        if (e.type() == CmEventType.REJECTED) {
            err.printf("softrnic rping: %s refused the connection: REJ reason %s%s%n", o.address().getHostAddress(),
                    RejReason.describe(e.status()), e.status() == 8 ? ": no one listens on port " + o.port() : "");
        } else if (e.type() == CmEventType.UNREACHABLE) {
            err.printf("softrnic rping: %s did not answer the REQ, sent again on the CM's timer until it gave up%n",
                    o.address().getHostAddress());
        }
        err.flush();
        return 1;
    }

    private void debug(String line) {
        if (o.debug()) {
            err.println(line);
            err.flush();
        }
    }
}
