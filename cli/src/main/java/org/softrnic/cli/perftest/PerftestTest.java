package org.softrnic.cli.perftest;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import org.softrnic.verbs.Access;
import org.softrnic.verbs.SendOpcode;

/** The seven perftest 4.5 tools softrnic speaks for: what each one does and its defaults (perftest_parameters.c). */
enum PerftestTest {
    WRITE_BW(Verb.WRITE, Kind.BW, 5000),
    READ_BW(Verb.READ, Kind.BW, 1000),
    SEND_BW(Verb.SEND, Kind.BW, 1000),
    ATOMIC_BW(Verb.ATOMIC, Kind.BW, 1000),
    WRITE_LAT(Verb.WRITE, Kind.LAT, 1000),
    READ_LAT(Verb.READ, Kind.LAT, 1000),
    SEND_LAT(Verb.SEND, Kind.LAT, 1000);

    /** perftest's verbs: the title word, the request, the remote access a region and a QP get, one-way or round trip. */
    enum Verb {
        SEND("Send", SendOpcode.SEND, 0, Access.REMOTE_WRITE | Access.LOCAL_WRITE, 2),
        WRITE("RDMA_Write", SendOpcode.RDMA_WRITE, Access.REMOTE_WRITE, Access.REMOTE_WRITE, 2),
        READ("RDMA_Read", SendOpcode.RDMA_READ, Access.REMOTE_READ, Access.REMOTE_READ, 1),
        ATOMIC("Atomic", SendOpcode.ATOMIC_FETCH_AND_ADD, Access.REMOTE_ATOMIC, Access.REMOTE_ATOMIC, 1);

        final String title;
        final SendOpcode opcode;
        final int mrAccess;
        final int qpAccess;
        /** print_report_lat's rtt_factor: WRITE and SEND time a round trip and report half of it. */
        final int rttFactor;

        Verb(String title, SendOpcode opcode, int mrAccess, int qpAccess, int rttFactor) {
            this.title = title;
            this.opcode = opcode;
            this.mrAccess = mrAccess;
            this.qpAccess = qpAccess;
            this.rttFactor = rttFactor;
        }

        /** READ and atomics advertise the device's max_qp_rd_atom as OUT_READS; the others 1. */
        boolean readsOut() {
            return this == READ || this == ATOMIC;
        }
    }

    enum Kind {
        BW(" BW Test", 65536, 128),
        LAT(" Latency Test", 2, 1);

        final String titleSuffix;
        final int defaultSize;
        final int defaultTxDepth;

        Kind(String titleSuffix, int defaultSize, int defaultTxDepth) {
            this.titleSuffix = titleSuffix;
            this.defaultSize = defaultSize;
            this.defaultTxDepth = defaultTxDepth;
        }
    }

    /** Atomics always move 8 bytes. */
    static final int ATOMIC_SIZE = 8;

    final Verb verb;
    final Kind kind;
    final int defaultIters;

    PerftestTest(Verb verb, Kind kind, int defaultIters) {
        this.verb = verb;
        this.kind = kind;
        this.defaultIters = defaultIters;
    }

    int defaultSize() {
        return verb == Verb.ATOMIC ? ATOMIC_SIZE : kind.defaultSize;
    }

    /** write_bw, read_lat, ...: the tool's name without "ib_". */
    String toolName() {
        return name().toLowerCase(Locale.ROOT);
    }

    static Optional<PerftestTest> byName(String name) {
        return Arrays.stream(values()).filter(t -> t.toolName().equals(name.toLowerCase(Locale.ROOT))).findFirst();
    }
}
