package org.softrnic.emulator.os;

import java.util.ArrayList;
import java.util.List;

/**
 * Whether the JVM was started with native access granted to this module, as the {@code softrnic} launcher and
 * the test suites do ({@code --enable-native-access=ALL-UNNAMED}, or {@code =org.softrnic.emulator} on the module
 * path), on its command line or in {@code JDK_JAVA_OPTIONS}/{@code JAVA_TOOL_OPTIONS}. JDK 25 lets any code call
 * restricted methods with a warning, and {@link Module#isNativeAccessEnabled} says true even where the call
 * would then fail, so a component that has a JDK fallback (the UDP link) asks here first: a library user who
 * did not grant access gets the fallback, not the JDK's warning.
 */
public final class NativeAccess {
    private static final String FLAG = "--enable-native-access";

    private NativeAccess() {
    }

    public static boolean granted() {
        String wanted = NativeAccess.class.getModule().isNamed() ? NativeAccess.class.getModule().getName() : "ALL-UNNAMED";
        List<String> words = new ArrayList<>();
        ProcessHandle.current().info().arguments().ifPresent(a -> words.addAll(List.of(a)));
        for (String env : new String[] {"JDK_JAVA_OPTIONS", "JAVA_TOOL_OPTIONS"}) {
            String v = System.getenv(env);
            if (v != null && !v.isBlank()) words.addAll(List.of(v.strip().split("\\s+")));
        }
        for (int i = 0; i < words.size(); i++) {
            String w = words.get(i);
            String value = w.startsWith(FLAG + "=") ? w.substring(FLAG.length() + 1) : w.equals(FLAG) && i + 1 < words.size() ? words.get(i + 1) : null;
            if (value != null && List.of(value.split(",")).contains(wanted)) return true;
        }
        return false;
    }
}
