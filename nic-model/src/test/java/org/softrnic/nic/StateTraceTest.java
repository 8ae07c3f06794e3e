package org.softrnic.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.softrnic.verbs.SendOpcode;
import org.softrnic.verbs.SendWr;
import org.softrnic.wire.Opcode;

/** The engine's steps by rxe's state names, as a test asserts a path. */
class StateTraceTest {
    static List<String> record(Nic nic, StateTrace.Role role) {
        List<String> steps = new ArrayList<>();
        nic.stateTrace((qpn, r, state) -> {
            if (r == role) steps.add(state);
        });
        return steps;
    }

    @Test
    void aWriteWalksTheResponderAndItsAckTheCompleter() {
        Pair p = Pair.rc();
        List<String> resp = record(p.b.nic, StateTrace.Role.RESPONDER);
        List<String> comp = record(p.a.nic, StateTrace.Role.COMPLETER);
        SendWr wr = p.write(1, 0, 0, 64);
        p.a.post(wr);
        p.run();
        assertEquals(List.of("CHK_PSN", "CHK_OP_SEQ", "CHK_OP_VALID", "CHK_RESOURCE", "CHK_LENGTH", "CHK_RKEY", "EXECUTE", "COMPLETE",
                "ACKNOWLEDGE"), resp);
        assertEquals(List.of("CHECK_PSN", "CHECK_ACK", "WRITE_SEND", "COMP_ACK", "UPDATE_COMP", "DONE"), comp);
    }

    @Test
    void aDuplicateRequestGoesFromCheckPsnToDuplicateRequest() {
        Pair p = Pair.rc();
        SendWr wr = p.write(1, 0, 0, 64);
        p.a.post(wr);
        p.run();
        List<String> resp = record(p.b.nic, StateTrace.Role.RESPONDER);
        p.fabric.inject(p.b.nic, Pkt.of(Opcode.RC_RDMA_WRITE_ONLY).qpn(p.b.qp.qpn()).psn(0x100).ackReq()
                .reth(p.b.va(0), p.b.mr.rkey(), 64).payload(new byte[64]).frame());
        p.run();
        assertEquals(List.of("CHK_PSN", "DUPLICATE_REQUEST"), resp);
    }

    @Test
    void aRemoteAccessErrorEndsTheCompleterInError() {
        Pair p = Pair.rc();
        List<String> comp = record(p.a.nic, StateTrace.Role.COMPLETER);
        SendWr wr = p.a.wr(1, SendOpcode.RDMA_WRITE, 0, 64);
        wr.remoteAddr = p.b.va(0);
        wr.rkey = p.b.mr.rkey() ^ 0x100;
        p.a.post(wr);
        p.run();
        assertEquals(List.of("CHECK_PSN", "CHECK_ACK", "ERROR"), comp);
    }

    @Test
    void aReadResponseWalksReadCompAckAndUpdateComp() {
        Pair p = Pair.rc();
        List<String> comp = record(p.a.nic, StateTrace.Role.COMPLETER);
        SendWr wr = p.a.wr(1, SendOpcode.RDMA_READ, 0, 64);
        wr.remoteAddr = p.b.va(0);
        wr.rkey = p.b.mr.rkey();
        p.a.post(wr);
        p.run();
        assertEquals(List.of("CHECK_PSN", "CHECK_ACK", "READ", "COMP_ACK", "UPDATE_COMP", "DONE"), comp);
    }

    @Test
    void aLostAckTimesOutIntoErrorRetryAndTheResentWriteCompletes() {
        Pair p = Pair.rc();
        List<String> comp = record(p.a.nic, StateTrace.Role.COMPLETER);
        boolean[] dropped = {false};
        p.fabric.dropWhen(pk -> pk.from() == 1 && !dropped[0] && (dropped[0] = true)); // b's first ACK
        SendWr wr = p.write(1, 0, 0, 64);
        p.a.post(wr);
        p.run();
        assertEquals(List.of("ERROR_RETRY", "CHECK_PSN", "CHECK_ACK", "WRITE_SEND", "COMP_ACK", "UPDATE_COMP", "DONE"), comp);
    }
}
