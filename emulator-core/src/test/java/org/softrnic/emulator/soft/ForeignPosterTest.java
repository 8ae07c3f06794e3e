package org.softrnic.emulator.soft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.softrnic.emulator.config.FaultConfig;
import org.softrnic.verbs.Errno;
import org.softrnic.verbs.Mtu;
import org.softrnic.verbs.RecvWr;
import org.softrnic.verbs.SendWr;
import org.softrnic.verbs.VerbsException;

/** A post the runner refuses leaves nothing behind: it is refused before the WQE is written. */
class ForeignPosterTest {
    @Test
    void aPostFromAThreadTheVirtualFabricDoesNotRunOnWritesNothing() throws Exception {
        try (ApiPair p = new ApiPair(ApiPair.Kind.VIRTUAL, FaultConfig.NONE, Mtu.MTU_1024)) {
            var rq = ((SoftQp) p.qpB).qp.rq();
            long before = rq.produced();
            AtomicReference<Throwable> thrown = new AtomicReference<>();
            Thread other = Thread.ofPlatform().start(() -> {
                try {
                    p.qpB.postRecv(new RecvWr(1).sge(p.mrB.addr(), 64, p.mrB.lkey()));
                } catch (Throwable t) {
                    thrown.set(t);
                }
            });
            other.join();
            assertTrue(thrown.get() instanceof IllegalStateException, String.valueOf(thrown.get()));
            assertEquals(before, rq.produced(), "nothing was published");
            p.qpB.postRecv(new RecvWr(1).sge(p.mrB.addr(), 64, p.mrB.lkey())); // the owner's next post stands alone
            assertEquals(before + 1, rq.produced());
        }
    }

    @Test
    void numSgePastTheRequestsOwnListIsEinvalNotAnIndexError() throws Exception {
        try (ApiPair p = new ApiPair(ApiPair.Kind.VIRTUAL, FaultConfig.NONE, Mtu.MTU_1024)) {
            SendWr wr = new SendWr(1).sge(p.mrA.addr(), 8, p.mrA.lkey());
            wr.numSge = 2; // max_send_sge is 2, but the request holds one SGE
            VerbsException e = assertThrows(VerbsException.class, () -> p.qpA.postSend(wr));
            assertEquals(Errno.EINVAL, e.errno());
            assertTrue(e.getMessage().contains("holds 1 SGE"), e.getMessage());
        }
    }
}
