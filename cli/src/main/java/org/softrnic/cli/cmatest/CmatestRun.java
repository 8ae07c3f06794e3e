package org.softrnic.cli.cmatest;

import java.io.PrintWriter;
import java.lang.foreign.Arena;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.softrnic.cli.RunFailure;
import org.softrnic.verbs.cm.CmEvent;
import org.softrnic.verbs.cm.CmEventType;
import org.softrnic.verbs.cm.CmId;
import org.softrnic.verbs.cm.EventChannel;
import org.softrnic.verbs.cm.RdmaCm;

/**
 * What librdmacm's example tools share (cmatose, udaddy: struct cmatest): one event channel, a node per
 * connection, connect events handled until every connection is up or failed, then "test complete" and
 * "return status N". The client may try again while --wait lasts (softrnic's: a server still starting).
 */
public abstract class CmatestRun<N extends CmatestRun.Node> {
    /** One connection's objects (struct cmatest_node). */
    public interface Node {
        CmId id();

        /** Its verbs objects, then its id: librdmacm's order. */
        void close();
    }

    protected final PrintWriter out;
    protected final Arena arena = Arena.ofShared();
    protected final List<N> nodes = new ArrayList<>();
    protected final int connections;
    protected EventChannel channel;
    protected int connectsLeft;
    /** The last attempt was refused or unanswered: one --wait may make again. */
    protected boolean refused;

    protected CmatestRun(PrintWriter out, int connections) {
        this.out = out;
        this.connections = connections;
    }

    protected abstract int server() throws InterruptedException;

    /** One attempt of the client's: every connection, then the data. */
    protected abstract int connectAndTransfer() throws InterruptedException;

    /** cma_handler: one event; non-zero ends the connect events. */
    protected abstract int handle(CmEvent e) throws InterruptedException;

    /** The tool's own state to clear before the client tries again. */
    protected void reset() {
    }

    /** The tool: 0 when its return status is 0, else 1. */
    public final int run(boolean client, int waitSeconds) throws InterruptedException {
        int status;
        try (EventChannel ch = RdmaCm.createEventChannel()) {
            channel = ch;
            connectsLeft = connections;
            try {
                status = client ? client(waitSeconds) : server();
                say("test complete");
            } finally {
                closeNodes();
            }
        } finally {
            arena.close();
        }
        say("return status " + status);
        return status == 0 ? 0 : 1;
    }

    private int client(int waitSeconds) throws InterruptedException {
        long end = System.nanoTime() + waitSeconds * 1_000_000_000L;
        while (true) {
            refused = false;
            int ret = connectAndTransfer();
            if (!refused || System.nanoTime() - end >= 0) return ret;
            closeNodes();
            connectsLeft = connections;
            reset();
            Thread.sleep(1000);
        }
    }

    private void closeNodes() {
        for (N n : nodes) n.close();
        nodes.clear();
    }

    /** connect_events: {@link #handle} until every connection is up or failed, or a handler fails. */
    protected final int connectEvents(Duration max) throws InterruptedException {
        int ret = 0;
        while (connectsLeft > 0 && ret == 0) {
            CmEvent e = channel.getEvent(max);
            if (e == null) throw new RunFailure("the RDMA CM brought no event within " + max.toSeconds() + " s");
            if (node(e.id()) == null && e.type() != CmEventType.CONNECT_REQUEST) continue; // an id of an attempt given up
            ret = handle(e);
        }
        return ret;
    }

    /** A connection error's line and status, as the tools print it; REJECTED and UNREACHABLE may be tried again. */
    protected final int failed(String tool, CmEvent e) {
        say(tool + ": event: " + e.type() + ", error: " + e.status());
        refused |= e.type() == CmEventType.REJECTED || e.type() == CmEventType.UNREACHABLE;
        connectsLeft--;
        return e.status();
    }

    protected final N node(CmId id) {
        for (N n : nodes) if (n.id() == id) return n;
        return null;
    }

    protected final void say(String line) {
        out.println(line);
        out.flush();
    }
}
