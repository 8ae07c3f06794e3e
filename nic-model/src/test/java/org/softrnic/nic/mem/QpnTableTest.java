package org.softrnic.nic.mem;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The device's table of QPs by QPN: a map for any QPN a packet names, iterated in QPN order below 2^20. */
class QpnTableTest {
    @Test
    void agreesWithAMapOverRandomPutsAndRemovesOnBothSidesOf2To20() {
        QpnTable<String> t = new QpnTable<>();
        Map<Integer, String> ref = new HashMap<>();
        Random random = new Random(3);
        for (int step = 0; step < 50_000; step++) {
            int qpn = random.nextBoolean() ? random.nextInt(4096) : QpnTable.DIRECT - 2048 + random.nextInt(4096);
            if (random.nextInt(3) == 0) {
                assertEquals(ref.remove(qpn), t.remove(qpn), "remove " + qpn);
            } else {
                String v = "v" + step;
                ref.put(qpn, v);
                t.put(qpn, v);
            }
            assertEquals(ref.size(), t.size());
        }
        for (int qpn = 0; qpn < 4096; qpn++) assertEquals(ref.get(qpn), t.get(qpn));
        for (int qpn = QpnTable.DIRECT - 2048; qpn < QpnTable.DIRECT + 2048; qpn++) assertEquals(ref.get(qpn), t.get(qpn));
        List<String> seen = new ArrayList<>();
        t.forEachValue(seen::add);
        assertEquals(ref.size(), seen.size());
    }

    @Test
    void anyIntMayBeAskedForAndNegativeQpnsAreRefused() {
        QpnTable<String> t = new QpnTable<>();
        t.put(0x11, "a");
        for (int qpn : new int[] {-1, Integer.MIN_VALUE, Integer.MAX_VALUE, 0xffffff, QpnTable.DIRECT, 0x12, 1 << 19}) assertNull(t.get(qpn));
        assertNull(t.remove(0x12));
        assertThrows(IllegalArgumentException.class, () -> t.put(-5, "x"));
        assertThrows(IllegalArgumentException.class, () -> t.put(7, null));
    }

    @Test
    void iteratesTheDirectQpnsInOrderThenTheOthers() {
        QpnTable<Integer> t = new QpnTable<>();
        int[] qpns = {0x800011, 300, 0x11, 5000, QpnTable.DIRECT, 17_000, 0x12};
        for (int q : qpns) t.put(q, q);
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < t.slots(); i++) if (t.valueAt(i) != null) order.add(t.valueAt(i));
        assertEquals(List.of(0x11, 0x12, 300, 5000, 17_000), order.subList(0, 5));
        assertEquals(7, order.size());
        assertSame(t.get(5000), t.remove(5000));
        assertEquals(6, t.size());
    }
}
