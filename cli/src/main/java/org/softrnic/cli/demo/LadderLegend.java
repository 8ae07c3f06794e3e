package org.softrnic.cli.demo;

import java.util.List;
import org.softrnic.cli.decode.Legend;
import org.softrnic.cli.decode.Legend.Term;

/**
 * The terms a capture's ladder may show, each with how to find it on a printed line and what it means: the
 * legend under the ladder lists those that were on the screen. A table, so that a new field shown is a new line.
 */
final class LadderLegend {
    private static final List<Term> TERMS = List.of(
            Term.of("time (us)", "time \\(us\\)", "microseconds since the first packet drawn, from the capture's timestamps"),
            Term.of("\u00d7N", "\u00d7[0-9]+", "a run of N packets alike (same way, opcode, size, fields and note) drawn as one row,"
                    + " from its first packet's time; PSN first-last (a run through 2^24 ends below its start), and MSN or va"
                    + " first-last where they counted up; --every-packet draws each"),
            Term.of("PSN", "\\bPSN [0-9]", "packet sequence number (BTH, 24 bits): each request packet takes the next one,"
                    + " and an ACK carries the PSN of the last packet it acknowledges"),
            Term.of("IP n B", "\\bIP [0-9]+ B\\b", "the packet's size from its IP header to its ICRC (the Ethernet header not counted)"),
            Term.of("X", "-X\\||\\|X-", "an arrow that ends in X: the receiver drops the packet, and the note says why"),
            Term.of("AckReq", "\\bAckReq\\b", "the BTH's AckReq bit: the requester asks the responder to acknowledge this packet"),
            Term.of("AETH", "\\bAETH\\b", "ACK Extended Transport Header: ACK, RNR NAK or NAK, with the MSN"),
            Term.of("credits=invalid", "credits=invalid", "AETH credit code 0x1F: the responder does not advertise credits (end-to-end"
                    + " flow control off), as rxe always does"),
            Term.of("credit code", "credit code [0-9]+", "AETH credit code: how many receives the responder has posted, as a"
                    + " logarithmic code (the credits in brackets)"),
            Term.of("MSN", "\\bMSN=", "message sequence number (AETH): how many messages the responder has completed"),
            Term.of("RNR", "\\bRNR\\b", "receiver not ready: no receive was posted for a SEND or a WRITE with immediate; the requester waits the RNR timer,"
                    + " then sends again"),
            Term.of("go-back-N", "go-back-N", "after a NAK sequence error the requester sends again from the missing PSN on,"
                    + " everything after it too"),
            Term.of("RETH", "\\bRETH\\b", "RDMA Extended Transport Header, in a WRITE's first packet or a READ request: va, rkey and len"),
            Term.of("va", "\\bva=", "virtual address in the responder's memory that the operation targets"),
            Term.of("rkey", "\\brkey=", "remote key: names the responder's memory region and proves the right to use it"),
            Term.of("len", "\\blen=", "DMA length: the bytes of the whole message, not of this packet"),
            Term.of("AtomicETH", "\\bAtomicETH\\b", "Atomic Extended Transport Header: va, rkey, the value to add or swap in, and the"
                    + " value to compare with"),
            Term.of("AtomicAckETH", "\\bAtomicAckETH\\b", "Atomic ACK Extended Transport Header: orig, the value the 8 bytes held before"),
            Term.of("ImmDt", "\\bImmDt\\b", "Immediate Data: 4 bytes the receiver finds in its work completion (imm_data)"),
            Term.of("IETH", "\\bIETH\\b", "Invalidate Extended Transport Header: the rkey the responder invalidates (SEND_WITH_INV)"),
            Term.of("DETH", "\\bDETH\\b", "Datagram Extended Transport Header (UD): qkey, the Q_Key the receiving QP must hold,"
                    + " and src_qp, the sender's QP"),
            Term.of("ICRC", "\\bICRC\\b", "invariant CRC: CRC-32 over what no router changes; a receiver drops a packet whose"
                    + " ICRC is wrong"),
            Term.of("CM", "\\bCM\\b", "communication manager: its MADs connect QPs (REQ, REP, RTU) and disconnect them (DREQ, DREP);"
                    + " rdma_cm uses it"),
            Term.of("QP1", "\\bQP1\\b", "the general services QP: every port's CM sends and listens there"),
            Term.of("MAD", "\\bMAD\\b", "management datagram: 256 bytes in a UD SEND to QP1"),
            Term.of("tid", "\\btid=", "transaction ID: a MAD sent again keeps it"),
            Term.of("comm_id", "\\bcomm_id=", "communication ID: each side's name for the connection; remote= is the peer's"),
            Term.of("request_id", "\\brequest_id=", "SIDR request ID: matches a SIDR_REP to its SIDR_REQ"),
            Term.of("service_id", "\\bservice_id=", "what the REQ connects to: rdma_cm's port space << 16 | port"),
            Term.of("qpn", "\\bqpn=", "the sender's data QP: the peer's packets will go to it"),
            Term.of("starting_psn", "\\bstarting_psn=", "the PSN the sender's QP expects first: the peer's QP sends from it"),
            Term.of("RR/ID", "\\bRR/ID=", "responder resources / initiator depth: RDMA READs and atomics the sender accepts at once"
                    + " (max_dest_rd_atomic), and keeps outstanding (max_rd_atomic)"),
            Term.of("mtu_code", "\\bmtu_code=", "path MTU code: 1 256, 2 512, 3 1024, 4 2048, 5 4096 bytes"),
            Term.of("retry", "\\bretry=", "transport retries of the connection's QPs (retry_cnt)"),
            Term.of("rnr_retry", "\\brnr_retry=", "RNR retries of the connection's QPs (rnr_retry; 7: for ever)"),
            Term.of("target_ack_delay", "\\btarget_ack_delay=", "how long the REP's sender may take to acknowledge: 4.096 us * 2^value"),
            Term.of("service_timeout", "\\bservice_timeout=", "how long the MRA's sender needs before it answers: 4.096 us * 2^value"),
            Term.of("remote_qpn", "\\bremote_qpn=", "the receiver's QP, which the DREQ disconnects"));

    private LadderLegend() {
    }

    static Legend create() {
        return new Legend(TERMS);
    }
}
