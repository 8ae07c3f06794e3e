package org.softrnic.emulator.soft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.softrnic.emulator.config.SoftRnicConfig;
import org.softrnic.verbs.Errno;
import org.softrnic.verbs.QpCaps;
import org.softrnic.verbs.QpInitAttr;
import org.softrnic.verbs.QpType;
import org.softrnic.verbs.VerbsException;

/** A QP on an SRQ has no receive queue of its own: ibv_create_qp(3) ignores its max_recv_wr and max_recv_sge (0 in ibv_srq_pingpong). */
class SrqCapsTest {
    @Test
    void aQpOnAnSrqTakesNoReceiveCapabilities() {
        try (SoftFabric fabric = SoftFabric.virtual(3)) {
            SoftRnic dev = fabric.add(SoftRnicConfig.builder().name("srqcaps").gid("10.7.0.9").build());
            try (var ctx = dev.open(); var pd = ctx.allocPd(); var cq = ctx.createCq(16); var srq = pd.createSrq(16, 1, 0)) {
                try (var qp = pd.createQp(new QpInitAttr(QpType.RC, cq, cq, srq, new QpCaps(1, 0, 1, 0, 0), false))) {
                    assertEquals(QpType.RC, qp.type());
                }
                VerbsException without = assertThrows(VerbsException.class,
                        () -> pd.createQp(new QpInitAttr(QpType.RC, cq, cq, null, new QpCaps(1, 1, 1, 0, 0), false)));
                assertEquals(Errno.EINVAL, without.errno(), "without an SRQ the receive queue needs its SGEs");
            }
            dev.close();
        }
    }
}
