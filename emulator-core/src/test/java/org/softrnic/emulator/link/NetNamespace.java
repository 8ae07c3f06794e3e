package org.softrnic.emulator.link;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A network namespace of a test's own ({@code ip netns add}), deleted on close, and a way to make sockets in
 * it from this JVM: a thread that has entered a namespace (libc's setns, through FFM) creates its sockets
 * there, and they stay there whichever thread uses them afterwards. Needs root and iproute2.
 */
final class NetNamespace implements AutoCloseable {
    private static final int CLONE_NEWNET = 0x40000000;
    private static final int O_RDONLY = 0;
    final String name;

    private NetNamespace(String name) {
        this.name = name;
    }

    /** Whether this process may make namespaces: root, with {@code ip} on the path. */
    static boolean available() {
        try {
            return "0".equals(run(List.of("id", "-u")).strip()) && run(List.of("ip", "-V")).contains("ip");
        } catch (Exception e) {
            return false;
        }
    }

    /** A new namespace whose loopback is up and holds {@code addresses} (IPv6, without duplicate detection). */
    static NetNamespace create(String prefix, String... addresses) throws Exception {
        NetNamespace ns = new NetNamespace(prefix + "-" + ProcessHandle.current().pid());
        run(List.of("ip", "netns", "add", ns.name));
        try {
            run(List.of("ip", "-n", ns.name, "link", "set", "lo", "up"));
            for (String a : addresses) run(List.of("ip", "-n", ns.name, "addr", "add", a + "/128", "dev", "lo", "nodad"));
        } catch (Exception e) {
            ns.close();
            throw e;
        }
        return ns;
    }

    /** Runs {@code body} on a thread inside this namespace: the sockets it opens belong to the namespace. */
    <T> T inside(Callable<T> body) throws Exception {
        AtomicReference<Object> out = new AtomicReference<>();
        Thread t = Thread.ofPlatform().start(() -> {
            try {
                enter(Path.of("/run/netns", name));
                out.set(body.call());
            } catch (Throwable e) {
                out.set(e);
            }
        });
        t.join();
        if (out.get() instanceof Exception e) throw e;
        if (out.get() instanceof Error e) throw e;
        @SuppressWarnings("unchecked")
        T result = (T) out.get();
        return result;
    }

    private static void enter(Path nsFile) throws Throwable {
        Linker linker = Linker.nativeLinker();
        var libc = linker.defaultLookup();
        MethodHandle open = linker.downcallHandle(libc.find("open").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_INT));
        MethodHandle setns = linker.downcallHandle(libc.find("setns").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
        MethodHandle close = linker.downcallHandle(libc.find("close").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
        try (Arena arena = Arena.ofConfined()) {
            int fd = (int) open.invokeExact(arena.allocateFrom(nsFile.toString()), O_RDONLY);
            if (fd < 0) throw new IllegalStateException("cannot open " + nsFile);
            int rc = (int) setns.invokeExact(fd, CLONE_NEWNET);
            int ignored = (int) close.invokeExact(fd);
            if (rc != 0) throw new IllegalStateException("setns into " + nsFile + " failed");
        }
    }

    @Override
    public void close() throws Exception {
        run(List.of("ip", "netns", "del", name));
    }

    /** Runs {@code ip -n NAME ARGS...} in this namespace. */
    void ip(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("ip", "-n", name));
        cmd.addAll(List.of(args));
        run(cmd);
    }

    /** Waits up to two seconds for {@code dev} to have a carrier (a TAP has one once a process opened it). */
    void awaitCarrier(String dev) throws Exception {
        for (int i = 0; i < 200 && run(List.of("ip", "-n", name, "-o", "link", "show", dev)).contains("NO-CARRIER"); i++) Thread.sleep(10);
    }

    private static String run(List<String> cmd) throws Exception {
        Path out = Files.createTempFile("netns", ".out");
        try {
            Process p = new ProcessBuilder(new ArrayList<>(cmd)).redirectErrorStream(true).redirectOutput(out.toFile()).start();
            int rc = p.waitFor();
            String text = Files.readString(out);
            if (rc != 0) throw new IllegalStateException(String.join(" ", cmd) + " failed (" + rc + "): " + text.strip());
            return text;
        } finally {
            Files.deleteIfExists(out);
        }
    }
}
