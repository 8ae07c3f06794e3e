package org.softrnic.nic.cq;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.softrnic.verbs.WcStatus;
import org.softrnic.verbs.WorkCompletion;

/** A CQ holds exactly its cqe completions; the next one overflows it, and none it held is lost. */
class CompletionQueueTest {
    private static void complete(CompletionQueue cq, long wrId) {
        WorkCompletion wc = cq.reserve();
        assertNotNull(wc, "room for wr_id " + wrId);
        wc.wrId = wrId;
        wc.status = WcStatus.SUCCESS;
        cq.commit(false);
    }

    @Test
    void aCqOfOneHoldsOneAndTheSecondOverflowsIt() {
        CompletionQueue cq = new CompletionQueue(1, 1);
        assertEquals(1, cq.capacity());
        complete(cq, 7);
        assertNull(cq.reserve(), "the second completion does not fit");
        assertTrue(cq.overflowed());
        WorkCompletion[] out = {new WorkCompletion(), new WorkCompletion()};
        assertEquals(1, cq.poll(out), "the first is still there");
        assertEquals(7, out[0].wrId);
    }

    @Test
    void everyCqeCompletionsFitThenItOverflows() {
        for (int cqe : new int[] {1, 2, 3, 16}) {
            CompletionQueue cq = new CompletionQueue(1, cqe);
            WorkCompletion[] out = new WorkCompletion[cqe];
            for (int i = 0; i < cqe; i++) out[i] = new WorkCompletion();
            for (int lap = 0; lap < 3; lap++) {
                for (int i = 0; i < cqe; i++) complete(cq, lap * 100 + i);
                assertEquals(cqe, cq.poll(out), "cqe " + cqe + ", lap " + lap);
                for (int i = 0; i < cqe; i++) assertEquals(lap * 100 + i, out[i].wrId);
            }
            for (int i = 0; i < cqe; i++) complete(cq, i);
            assertNull(cq.reserve(), "cqe " + cqe + ": one more overflows");
        }
    }
}
