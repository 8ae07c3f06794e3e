package org.softrnic.cli.cabi;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.Callable;
import org.softrnic.cli.RunFailure;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "cabi-path", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Print the directory of softrnic's libibverbs.so.1 and librdmacm.so.1, for unmodified C programs:"
                + " put it on LD_LIBRARY_PATH and the program's verbs run on a soft RNIC in its own process (no kernel"
                + " module, no root). The libraries are copied out of softrnic's jar, beside a softrnic-cabi.conf that names"
                + " this JVM and this jar.",
        footerHeading = "%nExamples:%n",
        footer = {"  export LD_LIBRARY_PATH=$(softrnic cabi-path)", "  ibv_devinfo -v",
                "  LD_LIBRARY_PATH=$(softrnic cabi-path) SOFTRNIC_IP=127.0.0.2 ibv_rc_pingpong -g 0"})
public final class CabiPathCommand implements Callable<Integer> {
    /** The libraries, in the jar beside org.softrnic.emulator.cabi.Cabi. */
    static final List<String> FILES = List.of("libibverbs.so.1", "librdmacm.so.1", "libmlx5.so.1", "libefa.so.1", "symbols.list", "minus-one.list");

    @Spec
    CommandSpec spec;

    @Option(names = "--dir", paramLabel = "DIR", description = "where to put them (default: ~/.cache/softrnic/cabi-HASH,"
            + " one directory per build)")
    Path dir;

    @Override
    public Integer call() throws IOException {
        Class<?> cabi = org.softrnic.emulator.cabi.Cabi.class;
        Path jar;
        try {
            jar = Path.of(cabi.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (java.net.URISyntaxException | RuntimeException e) {
            throw new RunFailure("cabi-path: cannot tell where softrnic's jar is: " + e.getMessage(), e);
        }
        if (!Files.isRegularFile(jar)) {
            throw new RunFailure("cabi-path: softrnic runs from " + jar + ", not from its jar; run ./softrnic cabi-path, which uses"
                    + " cli/target/softrnic.jar");
        }
        byte[] verbs = resource(cabi, "libibverbs.so.1");
        Path out = dir != null ? dir : cache().resolve("cabi-" + Integer.toHexString(java.util.Arrays.hashCode(verbs) ^ jar.hashCode()));
        Files.createDirectories(out);
        for (String f : FILES) {
            try (InputStream in = cabi.getResourceAsStream("native/" + f)) {
                if (in == null) throw new RunFailure("cabi-path: " + f + " is not in " + jar + " (built by scripts/build-cabi)");
                Path tmp = Files.createTempFile(out, f, ".tmp");
                Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
                Files.move(tmp, out.resolve(f), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            }
        }
        Files.writeString(out.resolve("softrnic-cabi.conf"), "# written by softrnic cabi-path: the JVM and the jar the libraries start\n"
                + "java_home=" + System.getProperty("java.home") + "\nclass_path=" + jar + "\n");
        PrintWriter o = spec.commandLine().getOut();
        o.println(out);
        o.flush();
        return 0;
    }

    private static Path cache() {
        String xdg = System.getenv("XDG_CACHE_HOME");
        Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".cache");
        return base.resolve("softrnic");
    }

    private static byte[] resource(Class<?> c, String name) throws IOException {
        try (InputStream in = c.getResourceAsStream("native/" + name)) {
            if (in == null) throw new RunFailure("cabi-path: " + name + " is not in softrnic's jar (built by scripts/build-cabi)");
            return in.readAllBytes();
        }
    }
}
