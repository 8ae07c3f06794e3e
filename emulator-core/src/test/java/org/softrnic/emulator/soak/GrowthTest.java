package org.softrnic.emulator.soak;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The soak's growth rule: a flat series passes, a steady climb of heap or RSS fails and says which. */
class GrowthTest {
    private static List<Sample[]> series(long heapStep, long rssStep) {
        List<Sample[]> s = new ArrayList<>();
        for (int minute = 0; minute < 60; minute++) {
            Sample steady = new Sample(5L << 20, 80L << 20);
            s.add(new Sample[] {steady, new Sample((5L << 20) + minute * heapStep, (80L << 20) + minute * rssStep)});
        }
        return s;
    }

    @Test
    void aFlatSeriesPassesAndAClimbFails() {
        assertNull(Growth.check(series(0, 0)));
        assertNull(Growth.check(series(10_000, 100_000)), "noise of a few KiB a minute is no leak");
        String heap = Growth.check(series(200_000, 0));
        assertTrue(heap != null && heap.startsWith("responder's heap"), heap);
        String rss = Growth.check(series(0, 2L << 20));
        assertTrue(rss != null && rss.startsWith("responder's RSS"), rss);
    }
}
