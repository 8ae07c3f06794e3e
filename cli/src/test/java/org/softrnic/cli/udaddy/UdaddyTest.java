package org.softrnic.cli.udaddy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.softrnic.cli.Main;

/** softrnic udaddy in both roles over UDP on loopback: SIDR, datagrams each way, udaddy's lines; and its refusals. */
class UdaddyTest {
    private static int freeUdpPort() throws Exception {
        try (java.net.DatagramSocket s = new java.net.DatagramSocket(0)) {
            return s.getLocalPort();
        }
    }

    @Test
    void twoUdConnectionsCarryDatagramsBothWaysAndEndWithStatusZero() throws Exception {
        int udp = freeUdpPort();
        StringWriter sOut = new StringWriter();
        StringWriter sErr = new StringWriter();
        CompletableFuture<Integer> server = CompletableFuture.supplyAsync(() -> Main.execute(new PrintWriter(sOut), new PrintWriter(sErr),
                "udaddy", "--link", "udp:127.0.0.1:" + udp, "-c", "2", "-C", "20", "-S", "1024", "--timeout", "60"));
        StringWriter cOut = new StringWriter();
        StringWriter cErr = new StringWriter();
        int rc = Main.execute(new PrintWriter(cOut), new PrintWriter(cErr), "udaddy", "--link", "udp:127.0.0.2:" + udp,
                "-s", "127.0.0.1", "-c", "2", "-C", "20", "-S", "1024", "--wait", "30");
        assertEquals(0, rc, cOut + "\n" + cErr + "\nserver:\n" + sOut + "\n" + sErr);
        assertEquals(0, server.get(60, TimeUnit.SECONDS), sOut + "\n" + sErr);
        List<String> client = cOut.toString().lines().toList();
        // --wait: a SIDR_REQ that found no listener yet (status 1) is asked again; the last attempt's lines end the same
        assertEquals(List.of("initiating data transfers", "receiving data transfers", "data transfers complete", "test complete",
                "return status 0"), client.subList(client.size() - 5, client.size()), cOut.toString());
        assertEquals("udaddy: starting client", client.getFirst());
        assertEquals(List.of("udaddy: starting server", "receiving data transfers", "sending replies", "data transfers complete",
                "test complete", "return status 0"), sOut.toString().lines().toList());
    }

    @Test
    void aServerNoOneListensOnIsUnreachableWithStatus1() throws Exception {
        int udp = freeUdpPort();
        // a device at the server's address that runs a CM but listens on nothing
        CompletableFuture<Integer> other = CompletableFuture.supplyAsync(() -> Main.execute(new PrintWriter(new StringWriter()),
                new PrintWriter(new StringWriter()), "rping", "-s", "-a", "127.0.0.1", "-p", "7175", "--link", "udp:127.0.0.1:" + udp,
                "--timeout", "8"));
        Thread.sleep(1500);
        StringWriter cOut = new StringWriter();
        StringWriter cErr = new StringWriter();
        // two requests an attempt, asked again for 3 s: the second answer of an attempt comes after it ended
        int rc = Main.execute(new PrintWriter(cOut), new PrintWriter(cErr), "udaddy", "--link", "udp:127.0.0.2:" + udp, "-s", "127.0.0.1",
                "-c", "2", "--wait", "3");
        assertEquals(1, rc, cOut + "\n" + cErr);
        assertTrue(cOut.toString().contains("udaddy: event: RDMA_CM_EVENT_UNREACHABLE, error: 1"), cOut.toString());
        assertTrue(cOut.toString().split("udaddy: connecting", -1).length > 2, "asked again:\n" + cOut);
        assertEquals("", cErr.toString(), "an answer for an attempt given up is no failure");
        assertTrue(cOut.toString().endsWith("return status 1" + System.lineSeparator()), cOut.toString());
        other.get(30, TimeUnit.SECONDS);
    }

    @Test
    void badArgumentsAreUsageErrors() {
        for (String[] args : new String[][] {{"-S", "5000"}, {"-P", "ipoib"}, {"-p", "0x106"}, {"-f", "gid"}, {"-c", "0"}, {"--wait", "3"}}) {
            StringWriter err = new StringWriter();
            String[] all = new String[args.length + 1];
            all[0] = "udaddy";
            System.arraycopy(args, 0, all, 1, args.length);
            assertEquals(2, Main.execute(new PrintWriter(new StringWriter()), new PrintWriter(err), all), String.join(" ", args) + ": " + err);
            assertEquals(1, err.toString().lines().count(), "one line: " + err);
        }
    }
}
