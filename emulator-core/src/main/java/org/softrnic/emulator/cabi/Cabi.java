package org.softrnic.emulator.cabi;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The Java side of softrnic's libibverbs.so.1 and librdmacm.so.1. The libraries' bootstrap starts a JVM in the
 * application's process and calls {@link #install} with their table of entry points: each slot, one per line of
 * symbols.list, gets an FFM upcall stub to the static method of the same name in one of {@link #IMPLEMENTATIONS},
 * whose Java types are the symbol's machine types. A slot left empty makes its entry point fail with EOPNOTSUPP.
 * An exception escaping a verb would end the process (an upcall may not throw), so each is caught at the edge:
 * said on stderr, errno set, and the C caller gets the verb's failure value.
 */
public final class Cabi {
    /** The classes whose static methods are entry points, by the C name. */
    static final List<Class<?>> IMPLEMENTATIONS = List.of(CabiDevices.class, CabiStrings.class, CabiResources.class, CabiCqs.class,
            CabiQps.class, CabiCm.class, CabiSockaddr.class, CabiAsync.class, CabiPlain.class, CabiSrqs.class);

    /** The ibverbs calls that fail with -1 and errno rather than the errno value (minus-one.list, which the C side reads too). */
    static final java.util.Set<String> MINUS_ONE = minusOne();

    private static java.util.Set<String> minusOne() {
        return java.util.Set.copyOf(lines("minus-one.list"));
    }

    /** The lines of a list the build put beside the libraries in the jar, without blanks and comments. */
    private static List<String> lines(String name) {
        var in = Cabi.class.getResourceAsStream("native/" + name);
        if (in == null) throw new IllegalStateException(name + " is not in softrnic's jar (built by scripts/build-cabi)");
        try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.US_ASCII))) {
            return r.lines().map(String::trim).filter(l -> !l.isEmpty() && !l.startsWith("#")).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** One line of symbols.list. */
    record Symbol(String library, String version, String name, char ret, String args) {
        FunctionDescriptor descriptor() {
            MemoryLayout[] params = new MemoryLayout[args.length()];
            for (int i = 0; i < params.length; i++) params[i] = layout(args.charAt(i));
            return ret == 'v' ? FunctionDescriptor.ofVoid(params) : FunctionDescriptor.of(layout(ret), params);
        }

        private static MemoryLayout layout(char t) {
            return switch (t) {
                case 'p' -> ValueLayout.ADDRESS;
                case 'i' -> ValueLayout.JAVA_INT;
                case 's' -> ValueLayout.JAVA_SHORT;
                case 'b' -> ValueLayout.JAVA_BYTE;
                case 'l' -> ValueLayout.JAVA_LONG;
                default -> throw new IllegalArgumentException("machine type " + t);
            };
        }
    }

    private Cabi() {
    }

    /** The table's symbols, in slot order. */
    static List<Symbol> symbols() {
        List<Symbol> all = new ArrayList<>();
        for (String line : lines("symbols.list")) {
            String[] f = line.split(" ");
            all.add(new Symbol(f[0], f[1], f[2], f[3].charAt(0), f[4].equals("-") ? "" : f[4]));
        }
        return all;
    }

    /**
     * An upcall stub to {@code owner}'s static {@code method} of descriptor {@code d}, guarded as {@code verb} with
     * failure kind {@code failure}: for the entry points a struct's function pointers hold rather than the table.
     */
    static MemorySegment upcall(Class<?> owner, String method, FunctionDescriptor d, String verb, char failure) {
        try {
            MethodHandle h = MethodHandles.lookup().findStatic(owner, method, d.toMethodType());
            return Linker.nativeLinker().upcallStub(guard(h, verb, failure, "ibverbs"), d, Arena.global());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Fills the {@code slots} entries at {@code table} with upcall stubs; called once, by the libraries' bootstrap. */
    public static void install(long table, int slots) {
        List<Symbol> symbols = symbols();
        if (symbols.size() != slots) {
            throw new IllegalStateException("the libraries have " + slots + " entry points, softrnic's jar " + symbols.size()
                    + ": they come from different builds");
        }
        MemorySegment t = MemorySegment.ofAddress(table).reinterpret((long) slots * ValueLayout.ADDRESS.byteSize());
        for (int i = 0; i < slots; i++) {
            MethodHandle h = implementation(symbols.get(i));
            if (h != null) t.setAtIndex(ValueLayout.ADDRESS, i, Linker.nativeLinker().upcallStub(h, symbols.get(i).descriptor(), Arena.global()));
        }
    }

    /** The program exits (atexit): the device closes, its objects with it, as the kernel closes a process's. */
    public static void exit() {
        CabiDevices.closeDevice();
    }

    /** The method that serves {@code s}, its failures caught; null when none does. */
    static MethodHandle implementation(Symbol s) {
        MethodType type = s.descriptor().toMethodType();
        for (Class<?> c : IMPLEMENTATIONS) {
            MethodHandle h;
            try {
                h = MethodHandles.lookup().findStatic(c, s.name(), type);
            } catch (NoSuchMethodException e) {
                continue;
            } catch (IllegalAccessException e) {
                throw new IllegalStateException(e);
            }
            return guard(h, s.name(), s.ret(), s.library());
        }
        return null;
    }

    /** {@code h}, its failures caught: said on stderr, errno set, and the value its C caller checks returned. */
    static MethodHandle guard(MethodHandle h, String name, char ret, String library) {
        return MethodHandles.catchException(h, Throwable.class, failure(library, name, ret, h.type()));
    }

    static org.softrnic.verbs.VerbsException invalid(String why) {
        return new org.softrnic.verbs.VerbsException("verbs", org.softrnic.verbs.Errno.EINVAL, why);
    }

    static org.softrnic.verbs.VerbsException error(String verb, int errno, String why) {
        return new org.softrnic.verbs.VerbsException(verb, errno, why);
    }

    /** (Throwable, the verb's arguments) to its failure value, having said why and set errno. */
    private static MethodHandle failure(String library, String name, char ret, MethodType type) {
        try {
            MethodHandle report = MethodHandles.lookup().findStatic(Cabi.class, "report",
                    MethodType.methodType(Object.class, String.class, char.class, String.class, Throwable.class));
            MethodHandle h = MethodHandles.insertArguments(report, 0, library, ret, name);
            h = type.returnType() == void.class ? h.asType(MethodType.methodType(void.class, Throwable.class))
                    : MethodHandles.explicitCastArguments(h, MethodType.methodType(type.returnType(), Throwable.class));
            return MethodHandles.dropArguments(h, 1, type.parameterList());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A verb failed in Java: errno, a line on stderr, and the value its caller checks (as the trampolines' own). */
    @SuppressWarnings("unused") // called through the handle above
    private static Object report(String library, char ret, String name, Throwable t) {
        int errno = t instanceof org.softrnic.verbs.VerbsException v ? v.errnoValue() : 5; // EIO
        CabiErrno.set(errno);
        System.err.println("softrnic: " + name + ": " + t.getMessage());
        return switch (ret) {
            case 'p' -> MemorySegment.NULL;
            case 'i' -> library.equals("ibverbs") && !MINUS_ONE.contains(name) ? errno : -1;
            case 'l' -> -1L;
            case 'n' -> 0L; // a pointer passed as a machine word: NULL
            case 'm' -> -1; // an ibverbs call whose failure is -1, not the errno (ibv_poll_cq, ibv_get_cq_event, ...)
            case 's' -> (short) 0;
            case 'b' -> (byte) 0;
            default -> null;
        };
    }
}
