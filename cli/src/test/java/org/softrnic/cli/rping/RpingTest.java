package org.softrnic.cli.rping;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.softrnic.cli.Main;

/** softrnic rping in both roles over UDP on loopback: rping's cycle, its output, its disconnect, and a REJ. */
class RpingTest {
    /** A server and a client, each a soft RNIC on its own loopback address; returns {server out, server err, client out, client err}. */
    private static String[] pair(int udp, int serverTimeout, String... clientArgs) throws Exception {
        StringWriter sOut = new StringWriter();
        StringWriter sErr = new StringWriter();
        CompletableFuture<Integer> server = CompletableFuture.supplyAsync(() -> Main.execute(new PrintWriter(sOut), new PrintWriter(sErr),
                "rping", "-s", "-a", "127.0.0.1", "--link", "udp:127.0.0.1:" + udp, "-v", "--timeout", "" + serverTimeout));
        Thread.sleep(300); // the server's socket is bound: a REQ before that would only be sent again 6 s later
        StringWriter cOut = new StringWriter();
        StringWriter cErr = new StringWriter();
        List<String> args = new java.util.ArrayList<>(List.of("rping", "-c", "-a", "127.0.0.1", "--link", "udp:127.0.0.2:" + udp));
        args.addAll(List.of(clientArgs));
        int rc = Main.execute(new PrintWriter(cOut), new PrintWriter(cErr), args.toArray(String[]::new));
        int src = server.get(serverTimeout + 30, TimeUnit.SECONDS);
        return new String[] {sOut.toString(), sErr.toString(), cOut.toString(), cErr.toString(), "" + rc, "" + src};
    }

    private static int udpPort() throws Exception {
        try (java.net.DatagramSocket s = new java.net.DatagramSocket(0)) {
            return s.getLocalPort();
        }
    }

    @Test
    void aClientPingsAServerTenTimesWithValidationAndBothEndCleanly() throws Exception {
        String[] r = pair(udpPort(), 60, "-C", "10", "-V", "-v", "-S", "64");
        assertEquals("0", r[4], "client: " + r[3]);
        assertEquals("0", r[5], "server: " + r[1]);
        List<String> pings = r[2].lines().toList();
        assertEquals(10, pings.size(), r[2]);
        // rping's pattern: "rdma-ping-N: " then ASCII from 'A' + N, cycling 'A'..'z', in 64 bytes with the NUL
        assertEquals("ping data: rdma-ping-0: ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqr", pings.get(0));
        assertTrue(pings.get(1).startsWith("ping data: rdma-ping-1: BCDEF"), pings.get(1));
        assertEquals(10, r[0].lines().filter(l -> l.startsWith("server ping data: rdma-ping-")).count(), r[0]);
        assertTrue(r[1].contains("server DISCONNECT EVENT..."), r[1]);
    }

    @Test
    void aClientToAPortNoOneListensOnIsRefusedWithReason8() throws Exception {
        String[] r = pair(udpPort(), 3, "-C", "1", "-p", "7175");
        assertEquals("1", r[4], r[3]);
        assertTrue(r[3].contains("cma event RDMA_CM_EVENT_REJECTED, error 8"), r[3]);
        assertTrue(r[3].contains("REJ reason 8 (invalid service ID): no one listens on port 7175"), r[3]);
    }

    @Test
    void badArgumentsExitTwo() {
        for (String[] args : new String[][] {{"rping"}, {"rping", "-s", "-c"}, {"rping", "-c"}, {"rping", "-s", "-S", "25"},
                {"rping", "-s", "-C", "-1"}, {"rping", "-c", "-a", "host.example", "--link", "udp:127.0.0.2"}}) {
            StringWriter err = new StringWriter();
            assertEquals(2, Main.execute(new PrintWriter(new StringWriter()), new PrintWriter(err), args), String.join(" ", args) + ": " + err);
            assertEquals(1, err.toString().lines().count(), err.toString());
        }
    }
}
