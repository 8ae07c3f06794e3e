package org.softrnic.cli.ucmatose;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.softrnic.cli.Main;

/** softrnic ucmatose in both roles over UDP on loopback: several connections, messages each way, cmatose's lines. */
class UcmatoseTest {
    @Test
    void fourConnectionsCarryMessagesBothWaysAndEndWithStatusZero() throws Exception {
        int udp;
        try (java.net.DatagramSocket s = new java.net.DatagramSocket(0)) {
            udp = s.getLocalPort();
        }
        StringWriter sOut = new StringWriter();
        StringWriter sErr = new StringWriter();
        int port = udp;
        CompletableFuture<Integer> server = CompletableFuture.supplyAsync(() -> Main.execute(new PrintWriter(sOut), new PrintWriter(sErr),
                "ucmatose", "--link", "udp:127.0.0.1:" + port, "-c", "4", "-C", "20", "-S", "4096", "--timeout", "60"));
        Thread.sleep(1000); // the server listens: cmatose tries once
        StringWriter cOut = new StringWriter();
        StringWriter cErr = new StringWriter();
        int rc = Main.execute(new PrintWriter(cOut), new PrintWriter(cErr), "ucmatose", "--link", "udp:127.0.0.2:" + udp,
                "-s", "127.0.0.1", "-c", "4", "-C", "20", "-S", "4096");
        assertEquals(0, rc, cOut + "\n" + cErr + "\nserver:\n" + sOut + "\n" + sErr);
        assertEquals(0, server.get(60, TimeUnit.SECONDS), sOut + "\n" + sErr);
        assertEquals(List.of("cmatose: starting client", "cmatose: connecting", "receiving data transfers", "sending replies",
                "data transfers complete", "test complete", "return status 0"), cOut.toString().lines().toList());
        assertEquals(List.of("cmatose: starting server", "initiating data transfers", "completing sends", "receiving data transfers",
                "data transfers complete", "cmatose: disconnecting", "disconnected", "test complete", "return status 0"),
                sOut.toString().lines().toList());
    }
}
