package org.softrnic.cli.explain;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The first words a student meets, one entry each: what the thing is, what it does, and the demo that shows it.
 * A table, so that a term is added in one line and each gets the same shape.
 */
final class GlossaryText {
    /** One term: its names as typed, a one-line definition, what it does, and where to see it. */
    private record Term(List<String> keys, String title, String what, String see) {}

    private static final List<Term> TERMS = List.of(
            term("QP|QUEUE PAIR", "QP: queue pair, the endpoint of RDMA communication",
                    "a send queue and a receive queue of work requests; each QP has a transport type (RC, UC, UD), a QPN and"
                            + " a state (RESET, INIT, RTR, RTS, SQD, SQE, ERR) that ibv_modify_qp moves",
                    "softrnic demo send; softrnic explain RESET-INIT"),
            term("RC|RELIABLE CONNECTED", "RC: reliable connected, a transport type",
                    "one QP talks to one other QP; every request is acknowledged, lost packets are sent again (go-back-N),"
                            + " and SEND, RDMA WRITE, RDMA READ and atomics are all allowed",
                    "softrnic demo loss"),
            term("UC|UNRELIABLE CONNECTED", "UC: unreliable connected, a transport type",
                    "one QP talks to one other QP with SEND and RDMA WRITE, but nothing is acknowledged: the rest of a message"
                            + " with a lost packet is dropped (a SEND's receive does not complete), with no retry and no error at"
                            + " the sender", "softrnic pingpong --help (ibv_uc_pingpong)"),
            term("UD|UNRELIABLE DATAGRAM", "UD: unreliable datagram, a transport type",
                    "one QP sends SENDs of at most one MTU to any UD QP, named per work request by an address handle, a QPN and"
                            + " a Q_Key; no connection, no acknowledgement; a receive gets a 40-byte GRH first", "softrnic demo ud"),
            term("PD|PROTECTION DOMAIN", "PD: protection domain",
                    "groups QPs, memory regions, windows and address handles: a QP may use only the memory of its own PD",
                    "softrnic explain rkey"),
            term("MR|MEMORY REGION", "MR: memory region",
                    "memory registered with the NIC (ibv_reg_mr): the NIC may read and write it, locally through its lkey and,"
                            + " with remote access flags, from the peer through its rkey", "softrnic demo write"),
            term("MW|MEMORY WINDOW", "MW: memory window",
                    "a part of a memory region granted to the peer under an rkey of its own, bound and invalidated by work"
                            + " requests (type 1 by ibv_bind_mw, type 2 by a BIND_MW work request)", "softrnic demo mw"),
            term("CQ|COMPLETION QUEUE", "CQ: completion queue",
                    "where the NIC reports finished work requests as work completions (WCs), which the application polls"
                            + " (ibv_poll_cq) or waits for through a completion channel", "softrnic demo cq-overflow"),
            term("CQE", "CQE: completion queue entry",
                    "one work completion in a CQ; a CQ holds at most its size in CQEs, and one more overflows it (IBV_EVENT_CQ_ERR)",
                    "softrnic demo cq-overflow"),
            term("SRQ|SHARED RECEIVE QUEUE", "SRQ: shared receive queue",
                    "one receive queue that several QPs take their receives from, so that receives are posted once for all of"
                            + " them; its limit event says when it runs low", "softrnic pingpong --help (ibv_srq_pingpong)"),
            term("WR|WORK REQUEST", "WR: work request",
                    "what the application posts: a send-queue WR (SEND, RDMA WRITE, READ, atomic...) with ibv_post_send, a"
                            + " receive WR with ibv_post_recv; each has a wr_id that its completion carries back", "softrnic demo send"),
            term("WQE|WORK QUEUE ELEMENT", "WQE: work queue element",
                    "a work request as it sits in a QP's send or receive queue, until the NIC has executed it", "softrnic demo send"),
            term("WC|WORK COMPLETION", "WC: work completion",
                    "a finished work request: its wr_id, its status (IBV_WC_SUCCESS or an error), and for a success the opcode,"
                            + " the byte count and any immediate data; on an error only wr_id, status and qp_num are defined",
                    "softrnic explain IBV_WC_REM_ACCESS_ERR"),
            term("SGE|SCATTER GATHER", "SGE: scatter/gather element",
                    "one (address, length, lkey) piece of a work request's buffer: a send gathers its data from its SGEs in order,"
                            + " a receive scatters what arrives into them", "softrnic explain lkey"),
            term("GID", "GID: global identifier, 128 bits",
                    "a port's address; on RoCE an IPv6 address, or an IPv4 address mapped into IPv6 (::ffff:a.b.c.d); RoCEv2"
                            + " packets go between the IP addresses of two GIDs", "softrnic devices"),
            term("LID", "LID: local identifier, 16 bits",
                    "an InfiniBand port's address inside its subnet, given by the subnet manager; RoCE has no LIDs (GIDs and IP"
                            + " addresses instead)", "softrnic explain GID"),
            term("AH|ADDRESS HANDLE", "AH: address handle",
                    "where a UD send goes: the destination GID, the source GID index, hop limit, traffic class and flow label"
                            + " (ibv_create_ah)", "softrnic demo ud"),
            term("ROCE", "RoCE: RDMA over Converged Ethernet",
                    "InfiniBand's transport (the BTH and what follows) carried over Ethernet instead of an InfiniBand fabric",
                    "softrnic decode samples/rc_pingpong.pcap --count 30"),
            term("ROCEV2", "RoCEv2: RoCE over UDP/IP",
                    "the InfiniBand transport in a UDP datagram to port 4791, so that it is routed like any IP packet; the"
                            + " UDP source port spreads flows over paths; the ICRC covers what routers do not change",
                    "softrnic decode --explain samples/rc_pingpong.pcap --count 30"),
            term("INFINIBAND|IB", "InfiniBand: a network made for RDMA",
                    "its own links, switches and subnet manager; its transport (QPs, BTH, PSNs, ACKs) is what RoCE carries"
                            + " over Ethernet", "softrnic explain RoCEv2"),
            term("IWARP", "iWARP: RDMA over TCP",
                    "RDMA verbs over a TCP connection (RDDP, MPA): another wire format, which softrnic does not speak",
                    "softrnic explain RoCEv2"),
            term("RDMA", "RDMA: remote direct memory access",
                    "one host's NIC reads or writes another host's memory, registered beforehand, without the remote CPU taking"
                            + " part in each transfer", "softrnic demo write"),
            term("VERBS|IBVERBS|LIBIBVERBS", "verbs: the RDMA programming interface",
                    "the operations the IBTA names (create a QP, post a send, poll a CQ...), in C as rdma-core's libibverbs"
                            + " (ibv_*), in Java as softrnic's org.softrnic.verbs", "softrnic check"),
            term("RNIC|HCA|NIC", "RNIC: an RDMA-capable NIC (InfiniBand calls it an HCA, host channel adapter)",
                    "runs the transport itself: segments messages into packets, acknowledges, retransmits, and moves data"
                            + " between the wire and registered memory; softrnic is one in software", "softrnic devices"),
            term("ECN", "ECN: explicit congestion notification",
                    "two bits of the IP header: a switch whose queue fills marks a packet CE (11) instead of dropping it; a"
                            + " RoCE receiver answers with a CNP (congestion notification packet); data must be sent ECN-capable,"
                            + " ECT(0) (10), to be marked", "softrnic explain CNP; softrnic demo cnp"),
            term("RED|ECN MARKING|KMIN|KMAX|PMAX", "RED: how a switch decides to mark",
                    "on the queue's depth as a packet leaves it: none below Kmin, a probability rising to Pmax at Kmax, every"
                            + " packet above (HPCC's default at 10 Gb/s: 40 KB, 160 KB, 0.2)", "softrnic sim two-flow --help"),
            term("DCQCN", "DCQCN: data center quantized congestion notification, RoCE's congestion control",
                    "a switch marks (the congestion point), the receiver sends CNPs (the notification point), the sender's"
                            + " NIC cuts its QP's rate RC by α/2 and raises it again on timers (the reaction point); two versions,"
                            + " the SIGCOMM 2015 paper's and NVIDIA's firmware's, with different defaults",
                    "softrnic demo cnp; softrnic sim two-flow"),
            term("REGISTRATION|MEMORY REGISTRATION|REG_MR|MEMLOCK", "registration: making memory usable by the NIC (ibv_reg_mr)",
                    "the kernel pins the pages (counted against RLIMIT_MEMLOCK, ulimit -l: past it, ENOMEM) and the NIC builds"
                            + " their translation and a key; it costs a system call and time per page, so applications register"
                            + " once or cache registrations (UCX's rcache, softrnic's MrCache)",
                    "softrnic demo registration; softrnic regcost; softrnic perf write --size 4096 --reg-per-message --reg-cost 20000,200"),
            term("ODP|ON DEMAND PAGING|ON-DEMAND PAGING|IBV_ACCESS_ON_DEMAND|PAGE FAULT", "ODP: on-demand paging (IBV_ACCESS_ON_DEMAND)",
                    "a region whose pages are not pinned: the NIC has no translation for a page until it is touched, and the"
                            + " first touch is a page fault the driver serves. Meanwhile the responder answers a SEND or WRITE with an"
                            + " RNR NAK (the sender waits its RNR timer and tries again) and drops a READ or atomic (the requester's"
                            + " ACK timer sends it again); a requester waits for its own buffers. When the kernel unmaps or moves the"
                            + " memory it invalidates the NIC's translations, and the next touch faults again; memory that is gone"
                            + " ends the access in IBV_WC_REM_ACCESS_ERR. ibv_advise_mr prefetches; an implicit region (address 0,"
                            + " length SIZE_MAX) covers the whole address space. The counters: page_faults, page_invalidations,"
                            + " page_prefetch",
                    "softrnic demo odp"),
            term("PFC|PRIORITY FLOW CONTROL|PAUSE", "PFC: priority flow control (IEEE 802.1Qbb)",
                    "a switch whose ingress holds too many bytes of one priority sends a pause frame (MAC control 0x8808,"
                            + " opcode 0x0101, a quanta per priority) upstream, which stops that priority until a pause of 0"
                            + " quanta; lossless, at the price of head-of-line blocking and congestion spreading",
                    "softrnic sim incast --pfc on --cc none --buffer 1000000"));

    private static final Map<String, Term> BY_KEY = new LinkedHashMap<>();

    static {
        for (Term t : TERMS) for (String k : t.keys) BY_KEY.put(k, t);
    }

    private GlossaryText() {
    }

    private static Term term(String keys, String title, String what, String see) {
        List<String> k = new ArrayList<>();
        for (String key : keys.split("\\|")) k.add(key.replace(' ', '_'));
        return new Term(List.copyOf(k), title, what, see);
    }

    /** The lines for a term (upper case, '-' and ' ' already '_'), or null. */
    static List<String> of(String u) {
        Term t = BY_KEY.get(u.replace(' ', '_'));
        if (t == null) return null;
        return List.of(t.title, "  what:   " + t.what, "  see:    " + t.see);
    }

    /** The first name of each term, for shell completion. */
    static List<String> names() {
        return TERMS.stream().map(t -> t.keys.getFirst().replace('_', ' ')).filter(k -> !k.contains(" ")).toList();
    }
}
