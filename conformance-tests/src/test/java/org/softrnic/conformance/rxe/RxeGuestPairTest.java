package org.softrnic.conformance.rxe;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.softrnic.conformance.CmTsharkCheck;
import org.softrnic.conformance.Interop;

/**
 * librdmacm's rping between two rxe guests, softrnic nowhere on the link: the two qemu guests share one socket
 * link, and the first records it. `softrnic decode --json` then reads every CM MAD of that capture as tshark's CM
 * dissector does, field by field, and every ICRC rxe computed checks out.
 */
class RxeGuestPairTest {
    private static final Path ROOT = Interop.ROOT;

    @Test
    void rpingBetweenTwoRxeGuestsDecodesAsTsharkReadsIt() throws Exception {
        Interop.requireRxeGuest();
        Interop.requireTool("rping");
        Interop.tier("ci");
        Path dir = Files.createDirectories(Path.of("target", "rxe-interop", "guest-pair").toAbsolutePath());
        Path pcap = dir.resolve("link.pcap");
        Files.deleteIfExists(pcap);
        int port;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.ofLiteral("127.0.0.1"))) {
            port = s.getLocalPort();
        }
        List<Process> guests = new ArrayList<>();
        try {
            guests.add(guest(dir, "server", "192.0.2.1", "52:54:00:12:34:01", "listen:" + port, pcap,
                    "rping -s -a 192.0.2.1 -v -C 10"));
            Thread.sleep(1000);
            // the client may boot first: rping tries once, so ask again while the server's rping starts
            guests.add(guest(dir, "client", "192.0.2.2", "52:54:00:12:34:02", "connect:" + port, null,
                    "ok=1; for i in $(seq 40); do if rping -c -a 192.0.2.1 -v -V -C 10; then ok=0; break; fi; sleep 2; done; test $ok = 0"));
            for (Process g : guests) g.waitFor(300, TimeUnit.SECONDS);
            String server = Files.readString(dir.resolve("server.out"));
            String client = Files.readString(dir.resolve("client.out"));
            String both = "server:\n" + server + Files.readString(dir.resolve("server.err")) + "\nclient:\n" + client
                    + Files.readString(dir.resolve("client.err"));
            assertTrue(server.contains("[tool rc=0]") && client.contains("[tool rc=0]"), both);
            assertTrue(client.contains("ping data: rdma-ping-9: "), both);
            // REQ, REP, RTU, DREQ, DREP at least; 10 x (2 SENDs, a READ, a WRITE, 2 SENDs) and their ACKs
            Interop.assertEveryIcrcValid(pcap, 60);
            int fields = CmTsharkCheck.assertTsharkAgrees(pcap, dir);
            assertTrue(fields >= 5 * 6, "every MAD's header and fields compared: " + fields);
        } finally {
            for (Process g : guests) g.destroyForcibly();
        }
    }

    private static Process guest(Path dir, String label, String ip, String mac, String net, Path pcap, String command)
            throws java.io.IOException {
        List<String> cmd = new ArrayList<>(List.of(ROOT.resolve("scripts/rxe-peer").toString(), "--ip", ip + "/24", "--mac", mac,
                "--net", net, "--timeout", "240", "--job", dir.resolve("job-" + label).toString()));
        if (pcap != null) cmd.addAll(List.of("--pcap", pcap.toString()));
        cmd.addAll(List.of("--", command + "; echo \"[tool rc=$?]\""));
        return new ProcessBuilder(cmd).directory(ROOT.toFile()).redirectOutput(dir.resolve(label + ".out").toFile())
                .redirectError(dir.resolve(label + ".err").toFile()).start();
    }
}
