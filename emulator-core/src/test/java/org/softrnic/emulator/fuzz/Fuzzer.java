package org.softrnic.emulator.fuzz;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.softrnic.nic.Counter;
import org.softrnic.nic.Counters;

/**
 * Fuzzes two soft RNICs while they carry a live RC transfer: hostile packets (see {@link Mutator}) go to
 * both devices between the transfer's own, and at the end the run says whether anything escaped a device's
 * receive path, whether any byte outside a registered region changed, whether every packet is accounted for
 * (taken as RoCE or dropped with a reason), and whether every round of the transfer was byte-exact or ended
 * by a packet that could legitimately end it.
 */
final class Fuzzer {
    /** What one run found. */
    record Result(long packets, double seconds, String link, long seed, long escaped, String firstEscape, long guardBytes,
                  String accounting, Map<String, Long> drops, long genuine, long effective, long roundsVerified,
                  long roundsEnded, Map<String, Long> endings, String firstEnding, String unexplained) {
        boolean ok() {
            return escaped == 0 && guardBytes == 0 && accounting == null && unexplained == null && roundsVerified > 0;
        }

        String summary() {
            return String.format("fuzzed %d packets in %.0f s (%s, seed %d): %d escaped, %d outside-region writes, drops %s, %s, %s",
                    packets, seconds, link, seed, escaped, guardBytes, drops,
                    accounting == null ? "every packet accounted for" : accounting,
                    unexplained == null ? "transfer verified: " + roundsVerified + " rounds byte-exact, " + roundsEnded
                            + " ended by an injected packet " + endings + " (" + effective + " of the packets could take effect; "
                            + genuine + " genuine packets beside them)"
                            : "TRANSFER BROKEN: " + unexplained);
        }
    }

    private Fuzzer() {
    }

    static Result run(String link, long packets, long seed, int lanes, int peerOdds) {
        Random r = new Random(seed);
        Mutator[] mutator = new Mutator[1];
        long[] genuine = new long[1];
        Recorder bySide = (side, buf, off, len) -> {
            genuine[0]++;
            if (mutator[0] == null || (genuine[0] & 3) != 0) return; // a quarter of them is material enough
            byte[] copy = new byte[len];
            MemorySegment.copy(buf.segment, ValueLayout.JAVA_BYTE, off, copy, 0, len);
            mutator[0].genuine(side, copy);
        };
        boolean udp = link.equals("udp");
        long start = System.nanoTime();
        long escaped = 0;
        String firstEscape = null;
        long effective = 0;
        try (FuzzRig rig = udp ? new UdpRig(bySide) : new SimRig(seed, bySide)) {
            Transfer t = new Transfer(rig, new Random(seed * 31 + 7), lanes, udp ? 10_000_000_000L : 2_000_000_000L);
            mutator[0] = new Mutator(r, rig, t, peerOdds, Mutator.captures(samples()));
            long injected = 0;
            long nextReport = packets / 10;
            while (injected < packets || t.anyActive()) {
                try {
                    if (injected < packets) t.startIdle();
                    // as many hostile packets as genuine ones, in bursts between the fabric's turns
                    int burst = (int) Math.max(8, Math.min(4096, genuine[0] - injected));
                    for (int i = 0; i < burst && injected < packets; i++, injected++) {
                        Mutant m = mutator[0].next();
                        boolean valid = rig.inject(m.side(), m.bytes(), m.restamp());
                        byte[] p = m.bytes();
                        if (valid && p.length >= Ip4.MIN && Ip4.src(p) == rig.ip(1 - m.side()) && Ip4.dst(p) == rig.ip(m.side())) {
                            effective++;
                            String what = m.kind() + " opcode 0x" + Integer.toHexString(Ip4.opcode(p)) + " PSN " + Ip4.psn(p)
                                    + " to " + (m.side() == 0 ? "A" : "B");
                            t.hit(m.side(), Ip4.dqpn(p), what);
                            // the lanes share a PD per side: a request at one lane's QP may carry another lane's rkey
                            int rkey = Ip4.rkey(p);
                            if (rkey != 0) t.hitRkey(m.side(), rkey, what);
                        }
                    }
                    rig.pump();
                    t.poll();
                } catch (RuntimeException e) {
                    escaped++;
                    if (firstEscape == null) firstEscape = stack(e);
                }
                if (packets >= 1_000_000 && injected >= nextReport && injected < packets) {
                    System.err.printf("  %d packets, %.0f s%n", injected, (System.nanoTime() - start) / 1e9);
                    nextReport += packets / 10;
                }
            }
            String accounting = null;
            Map<String, Long> drops = new TreeMap<>();
            for (int s = 0; s < 2; s++) {
                Counters c = rig.nic(s).counters();
                long taken = c.get(Counter.RCVD_PKTS) + c.get(Counter.DROP_MALFORMED) + c.get(Counter.DROP_BAD_ICRC) + c.get(Counter.DROP_NOT_ROCE);
                if (taken != rig.received(s) && accounting == null) {
                    accounting = "PACKETS UNACCOUNTED FOR at " + (s == 0 ? "A" : "B") + ": received " + rig.received(s)
                            + ", rcvd_pkts + drop_malformed + drop_bad_icrc + drop_not_roce = " + taken;
                }
                for (var e : c.snapshot().entrySet()) {
                    if (e.getValue() != 0 && (e.getKey().startsWith("drop_") || e.getKey().equals("duplicate_request")
                            || e.getKey().equals("out_of_seq_request"))) {
                        drops.merge(e.getKey(), e.getValue(), Long::sum);
                    }
                }
            }
            return new Result(injected, (System.nanoTime() - start) / 1e9, udp ? "udp" : "inproc", seed, escaped, firstEscape,
                    t.guardBytesChanged(), accounting, drops, genuine[0], effective, t.roundsVerified, t.roundsEnded, t.endings,
                    t.firstEnding, t.unexplained);
        }
    }

    /** The repository's rxe captures (samples/), from the working directory or its parent. */
    private static Path samples() {
        for (Path p : List.of(Path.of("samples"), Path.of("../samples"))) if (p.toFile().isDirectory()) return p;
        return null;
    }

    private static String stack(Throwable e) {
        var w = new java.io.StringWriter();
        e.printStackTrace(new java.io.PrintWriter(w));
        return w.toString();
    }

    /** {@code Fuzzer [--packets N] [--seed S] [--link inproc|udp] [--lanes K] [--peer-odds D]}; exit 1 when anything is wrong. */
    public static void main(String[] args) {
        long packets = 1_000_000;
        long seed = 1;
        String link = "inproc";
        int lanes = 8;
        int peerOdds = 128;
        for (int i = 0; i < args.length; i++) {
            String v = i + 1 < args.length ? args[i + 1] : null;
            try {
                switch (args[i]) {
                    case "--packets" -> packets = Long.parseLong(v);
                    case "--seed" -> seed = Long.parseLong(v);
                    case "--link" -> link = v;
                    case "--lanes" -> lanes = Integer.parseInt(v);
                    case "--peer-odds" -> peerOdds = Integer.parseInt(v);
                    default -> usage("unknown option " + args[i]);
                }
            } catch (NumberFormatException | NullPointerException e) {
                usage(args[i] + " needs a number");
            }
            i++;
        }
        if (!link.equals("inproc") && !link.equals("udp")) usage("--link is inproc or udp");
        if (packets < 1 || lanes < 1 || lanes > 64 || peerOdds < 1) usage("--packets and --peer-odds are positive, --lanes 1..64");
        Result res = run(link, packets, seed, lanes, peerOdds);
        System.out.println(res.summary());
        if (res.firstEnding() != null) System.out.println("first ending: " + res.firstEnding());
        if (res.firstEscape() != null) System.out.println("first escape: " + res.firstEscape());
        if (!res.ok()) {
            System.out.println("replay: scripts/fuzz --packets " + packets + " --seed " + seed + " --link " + link);
            System.exit(1);
        }
    }

    private static void usage(String why) {
        System.err.println("fuzz: " + why);
        System.err.println("usage: scripts/fuzz [--packets N] [--seed S] [--link inproc|udp] [--lanes K] [--peer-odds D]");
        System.exit(2);
    }
}
