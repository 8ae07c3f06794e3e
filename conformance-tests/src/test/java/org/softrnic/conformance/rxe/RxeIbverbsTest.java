package org.softrnic.conformance.rxe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.softrnic.conformance.Interop;

/**
 * The FFM libibverbs provider on a real device: rxe0 inside the guest, whose /usr is the host's, so the JDK
 * runs there and the CLI's jar is copied into the run's folder. The verbs contract that the soft provider
 * passes (CheckCommandTest) must pass on rxe through FFM; and `softrnic pingpong --provider ibverbs` in the
 * guest must exchange verified data with `softrnic pingpong` on the soft provider on the host, both ways.
 */
class RxeIbverbsTest {
    private static final Path ROOT = Interop.ROOT;
    static final Path JAR = ROOT.resolve("cli/target/softrnic.jar");
    /** The CLI in the guest, from the run's job folder (the host's JDK, shared read-only). */
    static final String JAVA = "/usr/lib/jvm/temurin-25-jdk-amd64/bin/java --enable-native-access=ALL-UNNAMED -jar $JOB/softrnic.jar";

    @BeforeAll
    static void needsTheGuestAndTheJar() {
        Interop.requireRxeGuest();
        assertTrue(Files.exists(JAR), JAR + " is built by the cli module's package phase");
    }

    @Test
    void theVerbsContractPassesOnRxeThroughFfm() throws Exception {
        Path job = Files.createDirectories(Path.of("target", "rxe-interop", "ibverbs-check", "job").toAbsolutePath());
        Files.copy(JAR, job.resolve("softrnic.jar"), StandardCopyOption.REPLACE_EXISTING);
        Process p = new ProcessBuilder(ROOT.resolve("scripts/rxe-peer").toString(), "--job", job.toString(), "--timeout", "300", "--",
                JAVA + " devices -v; " + JAVA + " check --provider ibverbs -d rxe0; echo \"[check rc=$?]\"")
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(320, TimeUnit.SECONDS), "the guest did not finish");
        assertTrue(out.contains("rxe0") && out.contains("ibverbs"), "softrnic devices listed no rxe0:\n" + out);
        assertTrue(out.contains("[check rc=0]"), out);
        List<String> soft = passed(softCheck());
        assertTrue(soft.size() >= 13, "the soft provider passed only " + soft);
        assertEquals(soft, passed(out), "the scenarios the soft provider passes, on rxe through FFM:\n" + out);
        assertTrue(out.contains(soft.size() + " of " + soft.size() + " scenarios passed on ibverbs"), out);
    }

    /**
     * The JUnit extension on a real device: the consumer project's own test class
     * (examples/maven-consumer, RdmaWriteTest), compiled here unchanged, runs in the guest with
     * -Dsoftrnic.provider=ibverbs -Dsoftrnic.device=rxe0, each of its tests given two contexts of rxe0;
     * its fault annotation has no link to act on there, so that test is skipped with the reason, not passed without the loss.
     */
    @Test
    void theConsumersJunitTestsPassOnRxe0ThroughTheExtension() throws Exception {
        Path job = Files.createDirectories(Path.of("target", "rxe-interop", "ibverbs-junit", "job").toAbsolutePath());
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> guestPath = new java.util.ArrayList<>();
        int n = 0;
        for (String entry : classpath.split(java.io.File.pathSeparator)) {
            Path from = Path.of(entry);
            if (!Files.exists(from)) continue;
            String name = (n++) + "-" + from.getFileName();
            copyTree(from, job.resolve("cp").resolve(name));
            guestPath.add("$JOB/cp/" + name);
        }
        Path consumer = job.resolve("cp").resolve("consumer");
        compileConsumerTests(classpath, consumer);
        guestPath.add("$JOB/cp/consumer");
        String java = "/usr/lib/jvm/temurin-25-jdk-amd64/bin/java --enable-native-access=ALL-UNNAMED"
                + " -Dsoftrnic.provider=ibverbs -Dsoftrnic.device=rxe0 -cp " + String.join(":", guestPath);
        Process p = new ProcessBuilder(ROOT.resolve("scripts/rxe-peer").toString(), "--job", job.toString(), "--timeout", "300", "--",
                java + " " + GuestJUnit.class.getName() + " com.example.rdma.RdmaWriteTest; echo \"[junit rc=$?]\"")
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(320, TimeUnit.SECONDS), "the guest did not finish");
        Files.writeString(job.resolveSibling("guest.out"), out);
        assertTrue(out.contains("[junit rc=0]"), out);
        // the loss test is skipped with its reason: no link of a real device can be made to lose packets
        assertTrue(out.contains("2 tests successful") && out.contains("1 tests aborted") && out.contains("0 tests failed"), out);
    }

    /** examples/maven-consumer's test sources, compiled against this module's test classpath into {@code to}. */
    private static void compileConsumerTests(String classpath, Path to) throws java.io.IOException {
        Path sources = ROOT.resolve("examples/maven-consumer/src/test/java");
        List<String> files;
        try (var walk = Files.walk(sources)) {
            files = walk.filter(f -> f.toString().endsWith(".java")).map(Path::toString).toList();
        }
        Files.createDirectories(to);
        List<String> args = new java.util.ArrayList<>(List.of("-d", to.toString(), "-cp", classpath, "-proc:none"));
        args.addAll(files);
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        int rc = javax.tools.ToolProvider.getSystemJavaCompiler().run(null, null, err, args.toArray(String[]::new));
        assertEquals(0, rc, "the consumer's tests did not compile: " + err);
    }

    private static void copyTree(Path from, Path to) throws java.io.IOException {
        if (Files.isDirectory(from)) {
            try (var walk = Files.walk(from)) {
                for (Path f : (Iterable<Path>) walk::iterator) {
                    Path target = to.resolve(from.relativize(f).toString());
                    if (Files.isDirectory(f)) Files.createDirectories(target);
                    else Files.copy(f, target, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        } else {
            Files.createDirectories(to.getParent());
            Files.copy(from, to, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /** `softrnic check` on the soft provider, in this JVM. */
    private static String softCheck() {
        java.io.StringWriter out = new java.io.StringWriter();
        org.softrnic.cli.Main.execute(new java.io.PrintWriter(out), new java.io.PrintWriter(new java.io.StringWriter()), "check");
        return out.toString();
    }

    /** The names of the scenarios a check's output says passed. */
    private static List<String> passed(String out) {
        return out.lines().filter(l -> l.startsWith("ok   ")).map(l -> l.substring(5).split("\\s+")[0]).toList();
    }

    /** Puts the CLI's jar in the run's job folder, which the guest sees as $JOB; returns where the link is recorded. */
    static Path withTheJar(RxeRun ns) throws java.io.IOException {
        Path job = Files.createDirectories(ns.dir.resolve("job"));
        Files.copy(JAR, job.resolve("softrnic.jar"), StandardCopyOption.REPLACE_EXISTING);
        return ns.dir.resolve("link.pcap");
    }

    /**
     * softrnic's soft RNIC on the host (frame port on qemu's socket netdev) and softrnic on rxe0 through FFM
     * in the guest ping-pong 4 KiB messages; with --verify each side checks every byte of every message.
     */
    @ParameterizedTest(name = "soft provider on the host as {0}")
    @ValueSource(strings = {"client", "server"})
    void theFfmProviderOnRxeAndTheSoftProviderExchangeVerifiedData(String softRole) throws Exception {
        Interop.tier(softRole.equals("client") ? "ci" : "full"); // CI keeps one role of each case under its 30 minutes
        int iters = 100;
        try (RxeRun ns = RxeRun.on("frames", "ibverbs-mixed-" + softRole)) {
            Path pcap = withTheJar(ns);
            boolean softServes = softRole.equals("server");
            String guest = JAVA + " pingpong rc --provider ibverbs -d rxe0 -g " + ns.guestGidIndex() + " -n " + iters
                    + " --verify -p 18515" + (softServes ? " --wait 120" : "");
            Process soft = ns.runPair(softServes, List.of("pingpong", "rc", "--link", ns.softrnicLink(), "-g", "1", "-n", "" + iters,
                    "--verify", "-p", "" + ns.oobPort), guest, "; echo \"[tool rc=$?]\"", pcap);
            String g = ns.output("guest");
            assertTrue(g.contains("[tool rc=0]"), "the guest's softrnic failed:\n" + g + ns.errors("guest"));
            assertEquals(0, soft.exitValue(), ns.output("softrnic") + ns.errors("softrnic") + g);
            String verified = "verified " + iters + " received messages: 0 differed";
            assertTrue(g.contains(verified), g);
            assertTrue(ns.output("softrnic").contains(verified), ns.output("softrnic"));
            Interop.assertEveryIcrcValid(pcap, 2L * iters);
        }
    }

    /**
     * rxe as the requester while softrnic's frame port loses 3 % of the packets both ways, above all the
     * answers on their way to rxe: `softrnic perftest --verify` over FFM on rxe0 in the guest drives rxe's own
     * requester against softrnic's responder. read_bw checks the bytes of every READ where rxe placed them (a
     * READ re-issued from inside is answered MIDDLE..LAST, as rxe's completer requires); write_bw reads every
     * WRITE back at once (a duplicate WRITE's ACK must not name the READ's PSN, or rxe completes the READ with
     * no data). rxe must end with no error completion and no byte different.
     */
    @ParameterizedTest(name = "rxe runs {0} --verify, softrnic's frame port loses 3 %")
    @ValueSource(strings = {"read_bw", "write_bw"})
    void rxeAsTheRequesterGetsIntactDataWhenSoftrnicsAnswersAreLost(String test) throws Exception {
        Interop.tier(test.equals("read_bw") ? "ci" : "full");
        int iters = 100;
        try (RxeRun ns = RxeRun.on("frames", "ibverbs-verify-" + test)) {
            Path pcap = withTheJar(ns);
            String guest = JAVA + " perftest " + test + " --provider ibverbs -d rxe0 -x " + ns.guestGidIndex() + " -n " + iters
                    + " --verify -p 18515 --wait 120";
            Process soft = ns.runPair(true, List.of("perftest", test, "--link", ns.softrnicLink(",loss=0.03,seed=7"), "-x", "1",
                    "-n", "" + iters, "--verify", "-p", "" + ns.oobPort), guest, "; echo \"[tool rc=$?]\"", pcap);
            String g = ns.output("guest");
            assertTrue(g.contains("[tool rc=0]"), "rxe's side failed:\n" + g + ns.errors("guest"));
            assertEquals(0, soft.exitValue(), ns.output("softrnic") + ns.errors("softrnic") + g);
            String what = test.equals("read_bw") ? "READs" : "WRITEs read back";
            assertTrue(g.contains(" verified " + iters + " " + what + " of 65536 bytes: 0 differed"), g);
            Interop.assertEveryIcrcValid(pcap, 64L * iters);
            assertTrue(Interop.packetsSeenTwice(pcap) > 0, "the loss should have made rxe send some requests again");
            if (test.equals("read_bw")) assertReplaysGoOnFromTheMiddle(pcap);
        }
    }

    /** Every READ rxe re-issued from inside a READ is answered first with MIDDLE or LAST at that PSN. */
    private static void assertReplaysGoOnFromTheMiddle(Path pcap) {
        java.util.regex.Pattern psn = java.util.regex.Pattern.compile("\"opcode_name\":\"(\\w+)\".*\"psn\":(\\d+)");
        java.util.regex.Pattern dlen = java.util.regex.Pattern.compile("\"dlen\":(\\d+)");
        java.util.Set<String> partial = new java.util.HashSet<>();
        int replays = 0;
        for (String line : Interop.decodeJson(pcap).split("\n")) {
            java.util.regex.Matcher m = psn.matcher(line);
            if (!m.find()) continue;
            String op = m.group(1);
            String at = m.group(2);
            if (op.equals("RC_RDMA_READ_REQUEST")) {
                java.util.regex.Matcher d = dlen.matcher(line);
                if (d.find() && Integer.parseInt(d.group(1)) < 65536) partial.add(at);
            } else if (op.startsWith("RC_RDMA_READ_RESPONSE") && partial.remove(at)) {
                replays++;
                assertTrue(op.endsWith("MIDDLE") || op.endsWith("LAST"), "a READ re-issued at PSN " + at + " was answered " + op);
            }
        }
        assertTrue(replays > 0, "rxe re-issued no READ from inside one: the loss did not reach a READ's middle");
    }
}
