package org.softrnic.emulator.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * CI's share of {@code scripts/fuzz}: 10^5 hostile packets on each link while the transfer runs. With the
 * default odds almost every round sees no packet that could take effect, so the transfer must verify; with
 * every valid packet from the peer's own address, rounds end, and each ending must be one an injected packet
 * explains.
 */
class FuzzTest {
    @ParameterizedTest
    @ValueSource(strings = {"inproc", "udp"})
    void hostilePacketsChangeNothingTheyShouldNot(String link) {
        Fuzzer.Result r = clean(Fuzzer.run(link, 100_000, 16, 8, 128));
        assertTrue(r.roundsVerified() > 200, r.summary());
        assertTrue(r.drops().getOrDefault("drop_wrong_peer", 0L) > 10_000, r.summary());
        assertTrue(r.drops().getOrDefault("drop_bad_icrc", 0L) > 5_000, r.summary());
    }

    @ParameterizedTest
    @ValueSource(strings = {"inproc", "udp"})
    void roundsEndedByValidPacketsFromThePeerAreAllExplained(String link) {
        Fuzzer.Result r = clean(Fuzzer.run(link, 30_000, 17, 4, 1));
        assertTrue(r.effective() > 10_000, r.summary());
    }

    /** Nothing escaped, nothing outside a region changed, every packet counted, every failed round explained. */
    private static Fuzzer.Result clean(Fuzzer.Result r) {
        System.out.println(r.summary());
        assertEquals(0, r.escaped(), r.firstEscape());
        assertEquals(0, r.guardBytes(), "bytes outside every region changed");
        assertNull(r.accounting());
        assertNull(r.unexplained());
        return r;
    }
}
