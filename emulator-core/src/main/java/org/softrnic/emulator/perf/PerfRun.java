package org.softrnic.emulator.perf;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.softrnic.emulator.link.LinkSpec;
import org.softrnic.emulator.soft.SoftRnic;
import org.softrnic.verbs.Mtu;

/**
 * `softrnic perf` through the verbs API. In one process, a client and a server soft RNIC: on the
 * virtual-time in-process fabric (one thread; --loss and --seed replay exactly; throughput on the wall
 * clock) or on UDP loopback (--loss drops what each device sends, seeded, before its socket). In two processes, {@link #serve} and
 * {@link #connect} exchange QPNs, addresses and rkeys over TCP, as perftest does.
 */
public final class PerfRun {
    private PerfRun() {
    }

    static PerfDevices devices(String spec, double loss, long seed, String progress, String trace,
                               org.softrnic.emulator.config.RegCostConfig regCost) {
        LinkSpec link = LinkSpec.parse(spec);
        if (link.kind() == LinkSpec.Kind.INPROC) return new VirtualPerfDevices(loss, seed, trace, regCost);
        if (link.port() == 0) throw new IllegalArgumentException("--link " + spec + ": the UDP port must be 1..65535 here, not 0");
        return new UdpPerfDevices(link.address(), link.port(), loss, seed, progress, trace, regCost);
    }

    public static PerfResult run(PerfOptions o) {
        return run(o, PerfProgress.NONE);
    }

    /** Client and server in this process. */
    public static PerfResult run(PerfOptions o, PerfProgress progress) {
        return run(devices(o.link(), o.loss(), o.seed(), o.progress(), o.trace(), o.regCost()), o, progress);
    }

    /** Client and server in this process, on two contexts of the real device {@code device} (null: the first). */
    public static PerfResult runIbverbs(String device, PerfOptions o, PerfProgress progress) {
        return run(new IbverbsPerfDevices(device), o, progress);
    }

    private static PerfResult run(PerfDevices devices, PerfOptions o, PerfProgress progress) {
        PerfResult[] measured = {null};
        try {
            return runOn(devices, o, progress, measured);
        } catch (UncheckedIOException e) {
            // a trace that could not be written fails the run, after its results (measured before the close)
            PerfResult r = measured[0];
            if (r == null) throw e;
            return r.withError(e.getMessage());
        }
    }

    private static PerfResult runOn(PerfDevices devices, PerfOptions o, PerfProgress progress, PerfResult[] measured) {
        try (PerfDevices d = devices) {
            PerfResult r;
            try (PerfSide client = new PerfSide(d.client(), o, o.op() != PerfOp.READ && o.op() != PerfOp.ATOMIC);
                 PerfSide server = new PerfSide(d.server(), o, o.op() == PerfOp.READ)) {
                PerfEndpoint serverEnd = server.endpoint();
                client.connect(serverEnd);
                server.connect(client.endpoint());
                Runnable pump = () -> {
                    d.progressServer(); // inline: this thread drives the server too
                    server.pumpReceives();
                };
                PerfClient.Outcome out = PerfClient.run(client, serverEnd, pump, d instanceof VirtualPerfDevices, progress);
                Boolean verified = o.verify() && out.error() == null
                        ? (o.op() == PerfOp.READ ? client : server).verifyTargets() : null;
                r = result(o, d.describe(), out, d.packets(), d.dropped(), verified, d.clientCounters(), d.serverCounters());
            }
            measured[0] = r;
            return r;
        } finally {
            progress.finish();
        }
    }

    private static PerfResult result(PerfOptions o, String link, PerfClient.Outcome out, long packets, long dropped,
                                     Boolean verified, Map<String, Long> client, Map<String, Long> server) {
        long retrans = client.getOrDefault("completer_retry_err", 0L);
        return new PerfResult(o.op(), o.size(), out.done(), o.qps(), o.mtu().bytes, link, out.seconds(), out.peak(),
                out.average(), out.done() / out.seconds() / 1e6, packets, retrans, dropped, verified, out.error(), client,
                server, out.latency());
    }

    /** The link of a two-process run: UDP on a given address and port. */
    private static LinkSpec udpLink(String spec, String role) {
        LinkSpec link = LinkSpec.parse(spec);
        if (link.kind() != LinkSpec.Kind.UDP || link.port() == 0) {
            throw new IllegalArgumentException(role + " needs --link udp:ADDR[:PORT], the address this side binds");
        }
        return link;
    }

    /**
     * The server of a two-process run: binds its device on {@code o.link()} and the out-of-band port on the
     * same address, serves one client with the run it asks for, and returns what it verified.
     */
    public static PerfServerReport serve(PerfOptions o, int oobPort, Runnable onListening) {
        return serve(o, oobPort, 0, onListening);
    }

    /**
     * As {@link #serve(PerfOptions, int, Runnable)}; {@code timeoutSeconds} (0: none) bounds the wait for a
     * client; once one came, each of its messages but the one that ends the run must come within the
     * exchange timeout.
     */
    public static PerfServerReport serve(PerfOptions o, int oobPort, int timeoutSeconds, Runnable onListening) {
        LinkSpec link = udpLink(o.link(), "--server");
        int waitMs = (int) Math.min(Integer.MAX_VALUE, timeoutSeconds * 1000L); // 0: for ever
        // the device is bound first: "serving" is said only once both the link and the TCP port are ours
        try (SoftRnic dev = UdpPerfDevices.open("soft1", link.address(), link.port(), link.port(), o.loss(), o.seed(), o.progress(), o.trace(), o.regCost());
             var ctx = new Closing(dev);
             ServerSocket listener = new ServerSocket()) {
            listener.setReuseAddress(true);
            try {
                listener.bind(new InetSocketAddress(link.address(), oobPort));
            } catch (java.net.BindException e) {
                java.net.BindException named = new java.net.BindException("--oob-port " + oobPort + ": cannot listen on TCP port " + oobPort + " (" + e.getMessage() + ")");
                named.initCause(e);
                throw named;
            }
            listener.setSoTimeout(waitMs);
            onListening.run();
            Socket accepted;
            try {
                accepted = listener.accept();
            } catch (java.net.SocketTimeoutException e) {
                throw new IOException("no client came within " + timeoutSeconds + " s");
            }
            try (Socket s = accepted; Oob oob = new Oob(s)) {
                // the hello may come long after the connection (a forwarder connects first): the wait for a client
                s.setSoTimeout(waitMs);
                Oob.Hello hello;
                try {
                    hello = oob.receive(Oob.Hello.class);
                } catch (java.net.ProtocolException e) {
                    refuse(oob, e.getMessage());
                    throw e;
                }
                s.setSoTimeout(exchangeTimeoutMs());
                PerfOptions run;
                try {
                    // the same bounds as on the command line: a client cannot make the server allocate without limit
                    run = new PerfOptions(hello.op(), o.link(), hello.size(), hello.iters(), hello.qps(),
                            Mtu.ofBytes(hello.mtu()), 0, hello.seed(), hello.verify(), hello.txDepth(), o.progress());
                } catch (IllegalArgumentException | NullPointerException e) {
                    oob.send(new Oob.Welcome(null, "bad request: " + e.getMessage()));
                    throw new java.net.ProtocolException(oob.peer() + " asked for a run this server refuses: " + e.getMessage());
                }
                try (PerfSide side = new PerfSide(ctx.context, run, run.op() == PerfOp.READ)) {
                    try {
                        side.connect(hello.endpoint());
                    } catch (RuntimeException e) {
                        oob.send(new Oob.Welcome(null, "bad endpoint: " + e.getMessage()));
                        throw new java.net.ProtocolException(oob.peer() + " sent an endpoint this side cannot connect to: " + brief(e.getMessage()));
                    }
                    side.pumpReceives();
                    oob.send(new Oob.Welcome(side.endpoint(), null));
                    s.setSoTimeout(0); // the client's Done comes after its whole run
                    Oob.Done done = awaitDone(oob, side, dev);
                    Boolean verified = run.verify() && run.op() != PerfOp.READ && done.completed() == (long) run.iters() * run.qps()
                            ? side.verifyTargets() : null;
                    oob.send(new Oob.Report(verified, dev.counters()));
                    return new PerfServerReport(run, s.getInetAddress().getHostAddress(), done.completed(), verified, dev.counters());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("--server: " + e.getMessage(), e);
        }
    }

    /**
     * How long one side waits for the other's next message of the exchange (not for the run itself): 15 s, or
     * -Dsoftrnic.exchange_seconds.
     */
    static int exchangeTimeoutMs() {
        return Integer.getInteger("softrnic.exchange_seconds", 15) * 1000;
    }

    /** A message that may hold the peer's text, cut short: the CLI escapes what it prints. */
    static String brief(String s) {
        return s == null ? "" : s.length() > 200 ? s.substring(0, 200) + "..." : s;
    }

    /**
     * Drives the server's device (inline) and keeps its receives posted (SEND) until the client says it is
     * done; a reader thread waits for that message.
     */
    private static Oob.Done awaitDone(Oob oob, PerfSide side, SoftRnic dev) throws IOException {
        AtomicReference<Object> done = new AtomicReference<>();
        Thread reader = Thread.ofPlatform().daemon().start(() -> {
            try {
                done.set(oob.receive(Oob.Done.class));
            } catch (IOException | RuntimeException e) {
                done.set(e);
            }
        });
        boolean inline = side.o.progress().equals("inline");
        while (done.get() == null) {
            boolean moved = dev.progress();
            side.pumpReceives();
            if (inline) {
                if (!moved) Thread.onSpinWait();
            } else {
                java.util.concurrent.locks.LockSupport.parkNanos(20_000); // the device's own loop needs the core
            }
        }
        try {
            reader.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (done.get() instanceof IOException e) throw e;
        if (done.get() instanceof RuntimeException e) throw e;
        return (Oob.Done) done.get();
    }

    /** The client of a two-process run: its device on {@code o.link()}, the server at {@code host:oobPort}. */
    public static PerfResult connect(PerfOptions o, String host, int oobPort, PerfProgress progress) {
        LinkSpec link = udpLink(o.link(), "--connect");
        InetAddress server;
        try {
            server = InetAddress.ofLiteral(host); // an address, never a name to look up
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--connect " + host + ": not an IP address");
        }
        try (SoftRnic dev = UdpPerfDevices.open("soft0", link.address(), link.port(), link.port(), o.loss(), o.seed(), o.progress(), o.trace(), o.regCost());
             var ctx = new Closing(dev);
             PerfSide side = new PerfSide(ctx.context, o, o.op() != PerfOp.READ && o.op() != PerfOp.ATOMIC);
             Socket s = new Socket()) {
            s.connect(new InetSocketAddress(server, oobPort), 10_000);
            s.setSoTimeout(exchangeTimeoutMs()); // a wedged server must not hang the client for ever
            try (Oob oob = new Oob(s)) {
                oob.send(new Oob.Hello(o.op(), o.size(), o.iters(), o.qps(), o.mtu().bytes, o.txDepth(), o.seed(), o.verify(),
                        side.endpoint()));
                Oob.Welcome w = oob.receive(Oob.Welcome.class);
                if (w.error() != null) throw new IOException("the server refused the run: " + brief(w.error()));
                try {
                    side.connect(w.endpoint());
                } catch (RuntimeException e) {
                    throw new java.net.ProtocolException(oob.peer() + " sent an endpoint this side cannot connect to: " + brief(e.getMessage()));
                }
                PerfClient.Outcome out = PerfClient.run(side, w.endpoint(), () -> { }, false, progress);
                oob.send(new Oob.Done(out.done()));
                Oob.Report report = oob.receive(Oob.Report.class);
                Boolean verified = !o.verify() || out.error() != null ? null
                        : o.op() == PerfOp.READ ? side.verifyTargets() : report.verified();
                String describe = "udp " + link.address().getHostAddress() + " <-> " + host + " port " + link.port()
                        + " (two processes, " + (o.progress().equals("inline") ? "each thread drives its device" : "an event loop per device") + ")";
                long packets = dev.counters().get("sent_pkts") + report.counters().getOrDefault("sent_pkts", 0L);
                long dropped = dev.counters().get("link_dropped") + report.counters().getOrDefault("link_dropped", 0L);
                return result(o, describe, out, packets, dropped, verified, dev.counters(), report.counters());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("--connect " + host + " port " + oobPort + ": " + e.getMessage(), e);
        } finally {
            progress.finish();
        }
    }

    /** Tells a client why its run is refused, if it still listens; the server fails either way. */
    private static void refuse(Oob oob, String why) {
        try {
            oob.send(new Oob.Welcome(null, why));
        } catch (IOException | RuntimeException ignored) {
            // the client went away: the server's own failure says it all
        }
    }

    /** A context that closes with the try block. */
    private static final class Closing implements AutoCloseable {
        final org.softrnic.verbs.RdmaContext context;

        Closing(SoftRnic dev) {
            context = dev.open();
        }

        @Override
        public void close() {
            context.close();
        }
    }
}
