package org.softrnic.cli.oob;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.softrnic.cli.Main;

/**
 * Random, mutated, truncated and silent out-of-band exchanges thrown at every tool's server and client
 * (perf, pingpong, perftest): each run ends within the exchange timeout with exit 1 and one line naming what
 * went wrong, never a stack trace, a hang, or the peer's control characters on the terminal.
 */
class OobFuzzTest {
    /** Seeds per tool and role. */
    static final int RUNS = 6;
    /** Valid first messages, to mutate: perftest's version, a pingpong address, a perf hello. */
    static final String[] VALID = {"6.06\0\0\0\0\0\0\0\0\0\0\0\0", "0000:000011:1a2b3c:00000000000000000000ffffc0000201\0",
            "{\"op\":\"WRITE\",\"size\":65536,\"iters\":10,\"qps\":1,\"mtu\":1024,\"txDepth\":16,\"seed\":1,\"verify\":false,"
                    + "\"endpoint\":{\"gid\":\"127.0.0.2\",\"port\":4791,\"qpns\":[17],\"addrs\":[4096],\"rkeys\":[5]}}\n"};
    static final String HOSTILE = "\u001b]0;pwned\u0007\u001b[31mRED";
    /**
     * What the newcomer's review sent, given to every tool in both roles before the random runs: JSON with the
     * fields missing, JSON null, an array, and escape sequences.
     */
    static final byte[][] NAMED = {"{\"bogus\":true}\n".getBytes(StandardCharsets.US_ASCII), "null\n".getBytes(StandardCharsets.US_ASCII),
            "[1,2,3]\n".getBytes(StandardCharsets.US_ASCII), (HOSTILE + ":" + HOSTILE + "\n").getBytes(StandardCharsets.UTF_8)};

    /** Run {@code i}'s payload: the named ones first, then random ones. */
    static byte[] payload(int i, Random r) {
        return i < NAMED.length ? NAMED[i] : junk(r);
    }

    @BeforeAll
    static void shortExchanges() {
        System.setProperty("softrnic.exchange_seconds", "2");
    }

    @AfterAll
    static void back() {
        System.clearProperty("softrnic.exchange_seconds");
    }

    static int freePort() throws java.io.IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    /** What a hostile or broken peer sends: nothing, random bytes, a valid message mutated or cut, escapes. */
    static byte[] junk(Random r) {
        return switch (r.nextInt(5)) {
            case 0 -> new byte[0];
            case 1 -> {
                byte[] b = new byte[1 + r.nextInt(300)];
                r.nextBytes(b);
                yield b;
            }
            case 2 -> {
                byte[] v = VALID[r.nextInt(VALID.length)].getBytes(StandardCharsets.US_ASCII);
                for (int i = 0; i < 1 + r.nextInt(4); i++) v[r.nextInt(v.length)] ^= (byte) (1 << r.nextInt(8));
                yield v;
            }
            case 3 -> {
                byte[] v = VALID[r.nextInt(VALID.length)].getBytes(StandardCharsets.US_ASCII);
                yield java.util.Arrays.copyOf(v, r.nextInt(v.length));
            }
            default -> (HOSTILE + ":" + HOSTILE + ":" + HOSTILE + ":" + HOSTILE + "\n").getBytes(StandardCharsets.UTF_8);
        };
    }

    private record Outcome(int rc, String err, long millis) {}

    private static Outcome run(List<String> args) throws Exception {
        StringWriter err = new StringWriter();
        long t0 = System.nanoTime();
        int rc = Main.execute(new PrintWriter(new StringWriter()), new PrintWriter(err), args.toArray(String[]::new));
        return new Outcome(rc, err.toString(), (System.nanoTime() - t0) / 1_000_000);
    }

    private static void check(String what, Outcome o) {
        assertEquals(1, o.rc(), what + ": exit " + o.rc() + "\n" + o.err());
        assertFalse(o.err().contains("\tat "), what + ": a stack trace\n" + o.err());
        assertFalse(o.err().contains("\u001b"), what + ": the peer's escape sequence reached the terminal\n" + o.err());
        assertTrue(o.millis() < 20_000, what + ": took " + o.millis() + " ms");
    }

    @ParameterizedTest(name = "{0} server")
    @ValueSource(strings = {"perf", "pingpong", "perftest"})
    void aServerGivenJunkFailsInOneLine(String tool) throws Exception {
        Random r = new Random(tool.hashCode());
        for (int i = 0; i < NAMED.length + RUNS; i++) {
            int tcp = freePort();
            String link = "udp:127.0.0.1:" + freePort();
            List<String> args = switch (tool) {
                case "perf" -> List.of("perf", "--server", "--link", link, "--oob-port", "" + tcp, "--timeout", "3");
                case "pingpong" -> List.of("pingpong", "rc", "--link", link, "-p", "" + tcp, "--timeout", "3");
                default -> List.of("perftest", "write_bw", "--link", link, "-p", "" + tcp, "--timeout", "3");
            };
            CompletableFuture<Outcome> server = CompletableFuture.supplyAsync(() -> {
                try {
                    return run(args);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            byte[] junk = payload(i, r);
            try (Socket s = connectWithin(tcp, 10_000)) {
                OutputStream out = s.getOutputStream();
                out.write(junk);
                out.flush();
                if (i < NAMED.length || r.nextBoolean()) s.shutdownOutput(); // else say no more, and keep the connection open
                check(tool + " server, run " + i + " (" + junk.length + " bytes)", server.get(30, TimeUnit.SECONDS));
            }
        }
    }

    @ParameterizedTest(name = "{0} client")
    @ValueSource(strings = {"perf", "pingpong", "perftest"})
    void aClientGivenJunkFailsInOneLine(String tool) throws Exception {
        Random r = new Random(tool.hashCode() * 31L);
        for (int i = 0; i < NAMED.length + RUNS; i++) {
            try (ServerSocket fake = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                int tcp = fake.getLocalPort();
                String link = "udp:127.0.0.2:" + freePort();
                List<String> args = new ArrayList<>(switch (tool) {
                    case "perf" -> List.of("perf", "write", "--connect", "127.0.0.1", "--link", link, "--oob-port", "" + tcp);
                    case "pingpong" -> List.of("pingpong", "rc", "--link", link, "-p", "" + tcp, "127.0.0.1");
                    default -> List.of("perftest", "write_bw", "--link", link, "-p", "" + tcp, "127.0.0.1");
                });
                CompletableFuture<Outcome> client = CompletableFuture.supplyAsync(() -> {
                    try {
                        return run(args);
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                });
                byte[] junk = payload(i, r);
                fake.setSoTimeout(10_000);
                try (Socket s = fake.accept()) {
                    s.getOutputStream().write(junk);
                    s.getOutputStream().flush();
                    if (i < NAMED.length || r.nextBoolean()) s.shutdownOutput();
                    check(tool + " client, run " + i + " (" + junk.length + " bytes)", client.get(30, TimeUnit.SECONDS));
                }
            }
        }
    }

    /** A perf client whose hello is not one is told why before the server fails (row 2 of the review). */
    @org.junit.jupiter.api.Test
    void aPerfServerTellsAClientWhyItsHelloIsRefused() throws Exception {
        int tcp = freePort();
        List<String> args = List.of("perf", "--server", "--link", "udp:127.0.0.1:" + freePort(), "--oob-port", "" + tcp, "--timeout", "3");
        CompletableFuture<Outcome> server = CompletableFuture.supplyAsync(() -> {
            try {
                return run(args);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        try (Socket s = connectWithin(tcp, 10_000)) {
            s.getOutputStream().write("null\n".getBytes(StandardCharsets.US_ASCII));
            s.getOutputStream().flush();
            s.setSoTimeout(10_000);
            String reply = new java.io.BufferedReader(new java.io.InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8)).readLine();
            assertTrue(reply != null && reply.contains("\"error\"") && reply.contains("not a perf hello"), "the reply: " + reply);
            check("perf server given null", server.get(30, TimeUnit.SECONDS));
        }
    }

    private static Socket connectWithin(int port, long millis) throws Exception {
        long end = System.currentTimeMillis() + millis;
        while (true) {
            try {
                return new Socket(InetAddress.getLoopbackAddress(), port);
            } catch (java.net.ConnectException e) {
                if (System.currentTimeMillis() > end) throw e;
                Thread.sleep(50);
            }
        }
    }
}
