package org.softrnic.nic.transport;

import java.lang.reflect.Field;
import org.softrnic.nic.Nic;
import org.softrnic.nic.qp.QueuePair;

/**
 * Where the collector left a device's QP contexts, for {@code QpScale}: whether QPs made one after the other lie one
 * after the other. Served in turn, contexts in that order can be read as a stream the core's prefetcher runs ahead
 * of; scattered, each can be a miss of its own. A young collection that copies them, in an order of its own, decides
 * which, not the engine: the figure is printed beside the rates it explains.
 *
 * <p>Reads object addresses through {@code sun.misc.Unsafe} (compressed or not), so a diagnostic only. A QP count
 * below two has no neighbours: nothing to say. Under ZGC a stored reference carries colour bits beside the address,
 * so the probe says it cannot read one rather than print counts of nothing.
 */
public final class LayoutProbe {
    private static final Object[] BOX = new Object[1];

    private LayoutProbe() {}

    /**
     * How many of the {@code qps.length - 1} neighbours in creation order have the later context above the earlier
     * one by at most {@code 4096} bytes, how many below it by as much (a young collection under G1 copies an array's
     * objects backwards), and the most common such distance, negative for the latter.
     */
    public static String contexts(Nic nic, QueuePair[] qps) {
        Engine e = engine(nic);
        Object[] contexts = new Object[qps.length];
        for (int i = 0; i < qps.length; i++) contexts[i] = e.context(qps[i].qpn());
        return inOrder(contexts);
    }

    /**
     * The same for the QP objects themselves, which the application holds and a post reads before anything of the
     * engine's: no layout of the engine's places them.
     */
    public static String handles(QueuePair[] qps) {
        return inOrder(qps);
    }

    private static String inOrder(Object[] objects) {
        if (objects.length < 2) return "no neighbours";
        if (ZGC) return "not readable under ZGC";
        int inOrder = 0;
        int reversed = 0;
        long prev = address(objects[0]);
        java.util.Map<Long, Integer> strides = new java.util.HashMap<>();
        for (int i = 1; i < objects.length; i++) {
            long a = address(objects[i]);
            long d = a - prev;
            if (d > 0 && d <= 4096) {
                inOrder++;
                strides.merge(d, 1, Integer::sum);
            } else if (d < 0 && d >= -4096) {
                reversed++;
                strides.merge(d, 1, Integer::sum);
            }
            prev = a;
        }
        long stride = strides.isEmpty() ? 0 : mostCommon(strides);
        return String.format("%d of %d in order, %d in reverse order (mostly %d B apart)", inOrder, objects.length - 1, reversed, stride);
    }

    /**
     * Whether this JVM runs ZGC (its collector beans are named ZGC ...): its references are coloured pointers, not
     * addresses, and it counts its heap in whole pages.
     */
    public static boolean underZgc() {
        return java.lang.management.ManagementFactory.getGarbageCollectorMXBeans().stream().anyMatch(b -> b.getName().startsWith("ZGC"));
    }

    private static Engine engine(Nic nic) {
        try {
            Field f = Nic.class.getDeclaredField("engine");
            f.setAccessible(true);
            return (Engine) f.get(nic);
        } catch (ReflectiveOperationException ex) {
            throw new IllegalStateException(ex);
        }
    }

    /** The object's address, or what stands for it up to a constant: deltas are what the probe uses. */
    private static long address(Object o) {
        return raw(o) << SHIFT;
    }

    /** The reference as the JVM stores it in an array: a compressed oop (an address shifted right) or an address. */
    private static synchronized long raw(Object o) {
        BOX[0] = o;
        try {
            return COMPRESSED ? Integer.toUnsignedLong((int) GET_INT.invoke(UNSAFE, BOX, BASE)) : (long) GET_LONG.invoke(UNSAFE, BOX, BASE);
        } catch (ReflectiveOperationException ex) {
            throw new IllegalStateException(ex);
        } finally {
            BOX[0] = null;
        }
    }

    // sun.misc.Unsafe by reflection: the module does not read jdk.unsupported, and only this diagnostic needs it
    private static final Object UNSAFE;
    private static final java.lang.reflect.Method GET_INT;
    private static final java.lang.reflect.Method GET_LONG;
    private static final long BASE;
    private static final boolean COMPRESSED;
    private static final boolean ZGC = underZgc();
    /** How far a compressed oop is shifted: 0 below 4 GB of heap, 3 up to 32 GB, more with a wider alignment. */
    private static final int SHIFT;

    static {
        try {
            Class<?> k = Class.forName("sun.misc.Unsafe");
            Field f = k.getDeclaredField("theUnsafe");
            f.setAccessible(true);
            UNSAFE = f.get(null);
            GET_INT = k.getMethod("getInt", Object.class, long.class);
            GET_LONG = k.getMethod("getLong", Object.class, long.class);
            BASE = (int) k.getMethod("arrayBaseOffset", Class.class).invoke(UNSAFE, Object[].class);
            COMPRESSED = (int) k.getMethod("arrayIndexScale", Class.class).invoke(UNSAFE, Object[].class) == 4;
            SHIFT = COMPRESSED ? shift() : 0;
        } catch (ReflectiveOperationException ex) {
            throw new ExceptionInInitializerError(ex);
        }
    }

    /**
     * The shift, from two 16-byte objects made one after the other (in one allocation buffer, one right after the
     * other): their stored references differ by 16 shifted right. The most common difference of a few tries.
     */
    private static int shift() {
        java.util.Map<Long, Integer> seen = new java.util.HashMap<>();
        for (int i = 0; i < 64; i++) {
            long[] first = new long[0];
            long[] second = new long[0];
            seen.merge(raw(second) - raw(first), 1, Integer::sum);
        }
        long d = mostCommon(seen);
        return d == 16 ? 0 : d == 2 ? 3 : d == 1 ? 4 : 3;
    }

    /** The key seen most often; {@code counts} is not empty. */
    private static long mostCommon(java.util.Map<Long, Integer> counts) {
        return counts.entrySet().stream().max(java.util.Map.Entry.comparingByValue()).orElseThrow().getKey();
    }
}
