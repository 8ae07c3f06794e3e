package org.softrnic.cli.explain;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every syndrome 0x00-0xff and every opcode 0x00-0xff, against tables written here from the IBTA (vol 1 table 38
 * "OpCode field", 9.3.5 AETH with its credit-code and RNR-timer tables and table 45 "NAK codes"; RoCEv2 Annex
 * A17 for the CNP), never computed with the code under test.
 */
class ExplainTableTest {
    /** Operations 0-20 (low five bits) that RC and RD share. */
    private static final String[] OPS = {"SEND_FIRST", "SEND_MIDDLE", "SEND_LAST", "SEND_LAST_WITH_IMMEDIATE", "SEND_ONLY",
        "SEND_ONLY_WITH_IMMEDIATE", "RDMA_WRITE_FIRST", "RDMA_WRITE_MIDDLE", "RDMA_WRITE_LAST",
        "RDMA_WRITE_LAST_WITH_IMMEDIATE", "RDMA_WRITE_ONLY", "RDMA_WRITE_ONLY_WITH_IMMEDIATE", "RDMA_READ_REQUEST",
        "RDMA_READ_RESPONSE_FIRST", "RDMA_READ_RESPONSE_MIDDLE", "RDMA_READ_RESPONSE_LAST", "RDMA_READ_RESPONSE_ONLY",
        "ACKNOWLEDGE", "ATOMIC_ACKNOWLEDGE", "COMPARE_SWAP", "FETCH_ADD"};

    /** AETH credit codes 0-30 (code 31: invalid). */
    private static final int[] CREDITS = {0, 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768,
        1024, 1536, 2048, 3072, 4096, 6144, 8192, 12288, 16384, 24576, 32768};

    /** RNR NAK timer codes 0-31 in milliseconds. */
    private static final String[] RNR_MS = {"655.36", "0.01", "0.02", "0.03", "0.04", "0.06", "0.08", "0.12", "0.16",
        "0.24", "0.32", "0.48", "0.64", "0.96", "1.28", "1.92", "2.56", "3.84", "5.12", "7.68", "10.24", "15.36", "20.48",
        "30.72", "40.96", "61.44", "81.92", "122.88", "163.84", "245.76", "327.68", "491.52"};

    private static final String[] NAKS = {"PSN sequence error", "invalid request", "remote access error",
        "remote operational error", "invalid RD request"};

    /** The opcode's name, or "reserved", "XRC" or "manufacturer-specific". */
    private static String specOpcode(int v) {
        int transport = v >>> 5;
        int op = v & 0x1f;
        return switch (transport) {
            case 0b000 -> op <= 0x14 ? "RC_" + OPS[op] : switch (op) {
                case 0x16 -> "RC_SEND_LAST_WITH_INVALIDATE";
                case 0x17 -> "RC_SEND_ONLY_WITH_INVALIDATE";
                case 0x1c -> "RC_FLUSH";
                case 0x1d -> "RC_ATOMIC_WRITE";
                default -> "reserved";
            };
            case 0b001 -> op <= 0x0b ? "UC_" + OPS[op] : "reserved";
            case 0b010 -> op <= 0x14 ? "RD_" + OPS[op] : switch (op) {
                case 0x15 -> "RD_RESYNC";
                case 0x1c -> "RD_FLUSH";
                case 0x1d -> "RD_ATOMIC_WRITE";
                default -> "reserved";
            };
            case 0b011 -> op == 0x04 ? "UD_SEND_ONLY" : op == 0x05 ? "UD_SEND_ONLY_WITH_IMMEDIATE" : "reserved";
            case 0b100 -> op == 0x01 ? "CNP" : "reserved";
            case 0b101 -> "XRC";
            default -> "manufacturer-specific";
        };
    }

    private static String specSyndrome(int s) {
        int code = s & 0x1f;
        if ((s & 0x80) != 0) return "reserved syndrome (bit 7 must be 0)";
        return switch ((s >>> 5) & 3) {
            case 0b00 -> code == 31 ? "ACK credit code 31 (invalid: no end-to-end credits)"
                    : "ACK credit code " + code + " (" + CREDITS[code] + (CREDITS[code] == 1 ? " credit)" : " credits)");
            case 0b01 -> "RNR NAK timer code " + code + " (" + RNR_MS[code] + " ms)";
            case 0b10 -> "reserved syndrome (bits 6-5 = 10 are reserved)";
            default -> code < NAKS.length ? "NAK " + NAKS[code] : "NAK reserved code " + code;
        };
    }

    /** What explain's first opcode line classifies the value as. */
    private static String told(String opcodeLine, int v) {
        String head = String.format("opcode 0x%02x", v);
        if (opcodeLine.startsWith(head + " ")) return opcodeLine.substring(head.length() + 1);
        if (opcodeLine.startsWith(head + ": ")) return opcodeLine.substring(head.length() + 2).split("[ ,(]")[0];
        return "unrecognised line: " + opcodeLine;
    }

    @Test
    void everyOpcodeIsWhatTheSpecSays() {
        List<String> wrong = new ArrayList<>();
        for (int v = 0; v <= 0xff; v++) {
            List<String> l = ExplainSpecTest.explain(String.format("0x%02x", v));
            String want = specOpcode(v);
            String got = told(l.getFirst(), v);
            if (!want.equals(got)) wrong.add(String.format("0x%02x: spec %s, explain %s", v, want, got));
            if (want.contains("_")) {
                String byName = ExplainSpecTest.explain(want).getFirst();
                if (!byName.equals(String.format("opcode 0x%02x %s", v, want))) wrong.add(want + " by name: " + byName);
            }
        }
        assertEquals(List.of(), wrong);
    }

    @Test
    void everySyndromeIsWhatTheSpecSays() {
        List<String> wrong = new ArrayList<>();
        for (int s = 0; s <= 0xff; s++) {
            String want = String.format("AETH syndrome 0x%02x: %s", s, specSyndrome(s));
            String got = ExplainSpecTest.line(ExplainSpecTest.explain(String.format("0x%02x", s)), "AETH syndrome");
            if (!want.equals(got)) wrong.add(want + " | explain: " + got);
        }
        assertEquals(List.of(), wrong);
    }
}
