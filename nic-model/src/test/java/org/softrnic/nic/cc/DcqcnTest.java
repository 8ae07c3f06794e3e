package org.softrnic.nic.cc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The reaction point against the worked examples of ../shared/specs/dcqcn.md (section 1.7, tests T1 to T3). */
class DcqcnTest {
    private static final double LINE = 10_000; // Mb/s

    /** T1: one CNP at line rate with α = 1 halves RC; fast recovery for F = 5 timer events, then additive. */
    @Test
    void thePapersProfileCutsOnTheCnpAndRecoversAsTheWorkedExample() {
        Dcqcn rp = new Dcqcn(DcqcnParameters.paper(), LINE);
        rp.cnp();
        assertEquals(5_000, rp.currentRate(), 1e-9);
        assertEquals(10_000, rp.targetRate(), 1e-9);
        assertEquals(1.0, rp.alpha(), 1e-12, "(1 - g)·1 + g");
        double[] expected = {7_500, 8_750, 9_375, 9_687.5, 9_843.75, 9_921.875};
        for (double e : expected) {
            rp.increaseTick();
            assertEquals(e, rp.currentRate(), 1e-9);
        }
        assertEquals(10_000, rp.targetRate(), 1e-9, "the 6th event is additive, RT capped at the line rate");
    }

    /** T2: the firmware's integer arithmetic, α 10-bit. */
    @Test
    void theFirmwaresProfileCutsOnItsMonitorTickWithIntegerArithmetic() {
        Dcqcn rp = new Dcqcn(DcqcnParameters.firmware(), LINE);
        rp.decreaseTick();
        assertEquals(10_000, rp.currentRate(), "no CNP since the last check: no cut");
        rp.cnp();
        assertEquals(10_000, rp.currentRate(), "a CNP sets a flag; the cut waits for rate_reduce_monitor_period");
        rp.decreaseTick();
        assertEquals(5_005, rp.currentRate(), "10000 - floor(10000·1023/2048)");
        rp.decreaseTick();
        assertEquals(5_005, rp.currentRate(), "one cut per CNP-flagged period");
        rp.cnp();
        rp.alphaTick();
        assertEquals(1023, rp.alpha(), "floor(1019·1023/1024) + 5");
        rp.alphaTick();
        assertEquals(1018, rp.alpha(), "floor(1019·1023/1024) without a CNP");
    }

    @Test
    void theFirmwaresCutIsBoundedByMinDecFacAndMinRate() {
        Dcqcn rp = new Dcqcn(firmwareWith(10, 3_000, 0), LINE);
        rp.cnp();
        rp.decreaseTick();
        assertEquals(5_000, rp.currentRate(), "α/2^10 would take 99.9 %; min_dec_fac 50 keeps half");
        rp.cnp();
        rp.decreaseTick();
        assertEquals(3_000, rp.currentRate(), "never below rpg_min_rate");
    }

    @Test
    void theFirstCnpCanSetTheRate() {
        DcqcnParameters f = DcqcnParameters.firmware();
        Dcqcn rp = new Dcqcn(firmwareWith(f.rpgGd(), f.rpgMinRate(), 8_500), LINE);
        rp.cnp();
        assertEquals(8_500, rp.currentRate(), "rate_to_set_on_first_cnp");
        rp.cnp();
        assertEquals(8_500, rp.currentRate(), "only the first");
    }

    /** The firmware's defaults but for rpg_gd, rpg_min_rate and rate_to_set_on_first_cnp. */
    private static DcqcnParameters firmwareWith(int rpgGd, double rpgMinRate, double rateOnFirstCnp) {
        DcqcnParameters f = DcqcnParameters.firmware();
        return new DcqcnParameters(f.profile(), f.rpgTimeResetMicros(), f.rpgByteReset(), f.rpgThreshold(), f.rpgAiRate(),
                f.rpgHaiRate(), rpgGd, f.rpgMinDecFac(), rpgMinRate, rateOnFirstCnp, f.dceTcpG(), f.dceTcpRttMicros(),
                f.rateReduceMonitorPeriodMicros(), f.initialAlpha(), f.clampTgtRate(), f.clampTgtRateAfterTimeInc());
    }

    /** T3: once CNPs stop, α halves after ceil(log(1/2)/log(1 - g)) periods. */
    @Test
    void alphaDecaysAtTheProfilesRate() {
        Dcqcn paper = new Dcqcn(DcqcnParameters.paper(), LINE);
        paper.cnp();
        int n = 0;
        while (paper.alpha() >= 0.5) {
            paper.alphaTick();
            n++;
        }
        assertEquals(178, n, "g = 1/256: 178 periods of 55 µs");

        Dcqcn firmware = new Dcqcn(DcqcnParameters.firmware(), LINE);
        firmware.cnp();
        firmware.alphaTick(); // the tick that saw the CNP
        int m = 0;
        while (firmware.alpha() >= 1023 / 2.0) {
            firmware.alphaTick();
            m++;
        }
        // in real numbers (1 - 5/1024)^n halves at n = 142; each tick's floor takes up to one more unit off
        assertEquals(127, m, "the firmware's integer α, floor(1019·α/1024) from 1023, falls below half in 127 ticks");
    }

    @Test
    void theByteCounterIsAnIncreaseEventToo() {
        Dcqcn rp = new Dcqcn(DcqcnParameters.firmware(), LINE);
        rp.cnp();
        rp.decreaseTick(); // 5005
        rp.sent(DcqcnParameters.firmware().byteResetBytes() - 1);
        assertEquals(5_005, rp.currentRate(), "one byte short");
        rp.sent(1);
        assertEquals((5_005 + 10_000) / 2.0, rp.currentRate(), 1e-9, "fast recovery toward RT, at the line");
    }

    /** The firmware applies the stage rule before it counts the stage: the first event after a cut is fast recovery. */
    @Test
    void theFirmwaresFirstIncreaseAfterACutIsFastRecovery() {
        DcqcnParameters clamp = DcqcnParameters.firmware().with(java.util.Map.of("clamp_tgt_rate", 1));
        Dcqcn rp = new Dcqcn(clamp, LINE);
        rp.cnp();
        rp.decreaseTick(); // RT 10000, RC 5005
        rp.cnp();
        rp.decreaseTick(); // clamped: RT 5005, RC 5005 - floor(5005·1023/2048) = 2505
        assertEquals(2_505, rp.currentRate());
        assertEquals(5_005, rp.targetRate());
        rp.increaseTick();
        assertEquals(5_005, rp.targetRate(), "T was 0 < rpg_threshold 1: fast recovery, RT unchanged");
        assertEquals((2_505 + 5_005) / 2.0, rp.currentRate(), 1e-9);
        rp.increaseTick();
        assertEquals(5_010, rp.targetRate(), "T 1 >= rpg_threshold 1: additive, rpg_ai_rate 5 Mb/s");
        rp.increaseTick();
        rp.increaseTick();
        assertEquals(5_020, rp.targetRate(), "additive while the byte counter is 0: hyper needs min(T, BC) > rpg_threshold");
    }
}
