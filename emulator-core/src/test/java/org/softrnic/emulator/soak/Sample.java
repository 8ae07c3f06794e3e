package org.softrnic.emulator.soak;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

/** One process's memory at a moment: the heap in use right after a full collection, and the resident set. */
record Sample(long heapAfterGc, long rss) {
    static Sample now() {
        System.gc();
        long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        return new Sample(heap, residentSet());
    }

    /** VmRSS from /proc/self/status, in bytes; -1 where there is none. */
    static long residentSet() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmRSS:")) return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
            }
        } catch (IOException | NumberFormatException e) {
            // not Linux: no resident set to report
        }
        return -1;
    }

    static String mib(long bytes) {
        return String.format("%.1f MiB", bytes / 1048576.0);
    }

    String text() {
        return heapAfterGc + " " + rss;
    }

    static Sample parse(String[] words, int at) {
        return new Sample(Long.parseLong(words[at]), Long.parseLong(words[at + 1]));
    }
}
