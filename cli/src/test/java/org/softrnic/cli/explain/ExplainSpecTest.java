package org.softrnic.cli.explain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.softrnic.cli.Main;
import org.softrnic.verbs.AsyncEvent;
import org.softrnic.verbs.QpAttrMask;

/** `softrnic explain` says what the IBTA says: AETH syndromes, credit codes, SQE, CNP, and every name the tools print. */
class ExplainSpecTest {
    /** The explanation's lines; the topic must be known (exit 0). */
    static List<String> explain(String topic) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        assertEquals(0, Main.execute(new PrintWriter(out), new PrintWriter(err), "explain", topic), topic + ": " + err);
        return out.toString().lines().toList();
    }

    static String line(List<String> lines, String prefix) {
        return lines.stream().filter(l -> l.startsWith(prefix)).findFirst()
                .orElseThrow(() -> new AssertionError("no line starting with '" + prefix + "' in\n" + String.join("\n", lines)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"0x80", "0x81", "0x9f", "0xa0", "0xc0", "0xe0", "0xe2", "0xff"})
    void aSyndromeWithBit7SetIsReserved(String topic) {
        List<String> l = explain(topic);
        int s = Integer.parseInt(topic.substring(2), 16);
        String syn = String.format("AETH syndrome 0x%02x: ", s);
        assertEquals(syn + "reserved syndrome (bit 7 must be 0)", line(l, syn));
        assertTrue(String.join("\n", l).contains("never: bit 7 of the syndrome is reserved"), String.join("\n", l));
    }

    @Test
    void theLayoutIsOneWordingAndBit7IsReserved() {
        String layout = line(explain("0x60"), "  layout:");
        assertTrue(layout.contains("bit 7 reserved (0); bits 6-5: 00 ACK, 01 RNR NAK, 10 reserved, 11 NAK;"
                + " bits 4-0: the credit code (ACK), the RNR timer code (RNR NAK) or the NAK code (NAK)"), layout);
        assertFalse(layout.contains("bits 7-5"), layout);
        assertEquals(AethText.LAYOUT.length(), layout.indexOf("; the 24-bit MSN") - layout.indexOf("bit 7"), layout);
    }

    @Test
    void nakCodes5To31AreReserved() {
        for (int code = 5; code <= 31; code++) {
            List<String> l = explain(String.format("0x%02x", 0x60 | code));
            String syn = String.format("AETH syndrome 0x%02x: ", 0x60 | code);
            assertEquals(syn + "NAK reserved code " + code, line(l, syn));
            assertEquals("  when:   never: the NAK code is reserved", l.get(l.indexOf(line(l, syn)) + 2));
        }
        List<String> rd = explain("0x64");
        assertEquals("AETH syndrome 0x64: NAK invalid RD request", line(rd, "AETH syndrome"));
        assertTrue(String.join("\n", rd).contains("reliable datagram only"));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "0x00|ACK credit code 0 (0 credits)",
            "0x01|ACK credit code 1 (1 credit)",
            "0x05|ACK credit code 5 (6 credits)",
            "0x0c|ACK credit code 12 (64 credits)",
            "0x13|ACK credit code 19 (768 credits)",
            "0x1e|ACK credit code 30 (32768 credits)",
            "0x1f|ACK credit code 31 (invalid: no end-to-end credits)"})
    void theAckCreditFieldIsALogarithmicCode(String topic, String meaning) {
        assertEquals("AETH syndrome " + topic + ": " + meaning, line(explain(topic), "AETH syndrome"));
    }

    @Test
    void sqeIsUcAndUdOnlyAndItsNextStatesComeFromTheTable() {
        List<String> l = explain("SQE");
        String all = String.join("\n", l);
        assertTrue(l.contains("  next:   UC, UD: RESET, RTS, ERR (softrnic explain SQE-RTS says what a move needs)"), all);
        assertTrue(all.contains("RC never enters SQE"), all);
        assertFalse(l.stream().anyMatch(x -> x.startsWith("  next:") && x.contains("RC")), all);
        assertTrue(explain("RTS").contains("  next:   RC, UC, UD: RESET, RTS, SQD, ERR (softrnic explain RTS-SQD says what a move needs)"));
        assertTrue(explain("RESET").contains("  next:   RC, UC, UD: RESET, INIT, ERR (softrnic explain RESET-INIT says what a move needs)"));
    }

    @Test
    void cnpIsBthSixteenReservedBytesAndIcrcSentByTheNotificationPoint() {
        List<String> l = explain("CNP");
        String all = String.join("\n", l);
        assertEquals("opcode 0x81 CNP", l.getFirst());
        assertEquals("  fields: BTH (opcode, P_Key, destination QP, AckReq, PSN), then 16 reserved bytes, then the 4-byte ICRC",
                line(l, "  fields:"));
        String when = line(l, "  when:");
        assertTrue(when.contains("notification point") && when.contains("reaction point") && when.contains("ECN CE"), when);
        assertFalse(all.contains("in answer to requests"), all);

        List<String> both = explain("0x81");
        assertEquals("opcode 0x81 CNP", both.getFirst());
        assertEquals("AETH syndrome 0x81: reserved syndrome (bit 7 must be 0)", line(both, "AETH syndrome"));
    }

    private static final Pattern EMPTY_LIST = Pattern.compile("headers\\s*([;,.)]|$)");

    @Test
    void noOpcodeLinePrintsAnEmptyHeadersList() {
        for (int v = 0; v <= 0xff; v++) {
            for (String l : explain(String.format("0x%02x", v))) {
                assertFalse(EMPTY_LIST.matcher(l).find(), String.format("0x%02x: %s", v, l));
            }
        }
    }

    @Test
    void aReservedOpcodeIsCalledReserved() {
        List<String> l = explain("0x15");
        assertTrue(l.getFirst().startsWith("opcode 0x15: reserved"), l.getFirst());
        assertEquals("  when:   never: the opcode is reserved", l.get(1));
        assertEquals("AETH syndrome 0x15: ACK credit code 21 (1536 credits)", line(l, "AETH syndrome"));
        assertTrue(explain("0x1e").getFirst().startsWith("opcode 0x1e: reserved"));
        assertTrue(explain("0x66").getFirst().startsWith("opcode 0x66: reserved"));
        assertTrue(explain("0x80").getFirst().startsWith("opcode 0x80: reserved on RoCEv2"));
        assertTrue(explain("0x82").getFirst().startsWith("opcode 0x82: reserved"));
    }

    @Test
    void decimalAndHexAreToldTheSameWay() {
        List<String> dec = explain("4");
        assertEquals(dec, explain("0x4"));
        assertEquals(dec, explain("0x04"));
        assertEquals("opcode 0x04 RC_SEND_ONLY", dec.getFirst());
        assertEquals("AETH syndrome 0x04: ACK credit code 4 (4 credits)", line(dec, "AETH syndrome"));
        assertEquals(explain("96"), explain("0x60"));
        assertEquals(explain("129"), explain("0x81"));
    }

    @ParameterizedTest
    @EnumSource(AsyncEvent.Type.class)
    void everyAsyncEventIsExplained(AsyncEvent.Type t) {
        for (String topic : new String[] {t.ibvName(), t.ibvName().toLowerCase()}) {
            String first = explain(topic).getFirst();
            assertTrue(first.startsWith(t.ibvName() + ": affiliated with ") || first.startsWith(t.ibvName() + ": unaffiliated: "),
                    first);
        }
    }

    @Test
    void everyQpAttributeIsExplainedWithItsTransitions() {
        for (int bit = 0; bit <= 20; bit++) {
            String name = QpAttrMask.describe(1 << bit);
            List<String> l = explain(name);
            assertTrue(l.getFirst().startsWith(name + String.format(" (ibv_qp_attr_mask 0x%x): ", 1 << bit)), l.getFirst());
            if (bit > 0) {
                assertTrue(l.get(1).startsWith("  required: "), String.join("\n", l));
                assertTrue(l.get(2).startsWith("  optional: "), String.join("\n", l));
            }
        }
        assertEquals("  required: INIT -> RTR (RC, UC)", explain("IBV_QP_RQ_PSN").get(1));
        assertEquals("  required: RESET -> INIT (UD)", explain("IBV_QP_QKEY").get(1));
        assertEquals("  required: RTR -> RTS (RC, UC, UD)", explain("IBV_QP_SQ_PSN").get(1));
        assertEquals("  optional: RTS -> SQD (RC, UC, UD)", explain("IBV_QP_EN_SQD_ASYNC_NOTIFY").get(2));
        assertEquals("  required: in no transition", explain("IBV_QP_CAP").get(1));
        assertEquals(explain("IBV_QP_PATH_MTU"), explain("path_mtu"));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "BTH|BTH (12 bytes)", "RETH|RETH (16 bytes)", "AETH|AETH (4 bytes)", "AtomicETH|AtomicETH (28 bytes)",
            "AtomicAckETH|AtomicAckETH (8 bytes)", "atomic_ack_eth|AtomicAckETH (8 bytes)", "DETH|DETH (8 bytes)",
            "RDETH|RDETH (4 bytes)", "ImmDt|ImmDt (4 bytes)", "IETH|IETH (4 bytes)", "FETH|FETH (4 bytes)",
            "ICRC|ICRC (4 bytes)", "GRH|GRH, IP and UDP", "UDP|GRH, IP and UDP", "IP|GRH, IP and UDP",
            "PSN|PSN: packet sequence number, 24 bits", "MSN|MSN: message sequence number, 24 bits",
            "QPN|QPN: queue pair number, 24 bits", "rkey|rkey (R_Key): remote key, 32 bits", "R_Key|rkey (R_Key)",
            "lkey|lkey (L_Key): local key, 32 bits", "Q_Key|Q_Key: queue key, 32 bits", "qkey|Q_Key",
            "P_Key|P_Key: partition key, 16 bits", "pkey|P_Key"})
    void headersAndTermsAreExplained(String topic, String first) {
        List<String> l = explain(topic);
        assertTrue(l.getFirst().startsWith(first), l.getFirst());
        assertTrue(l.size() >= 2, String.join("\n", l));
    }

    @Test
    void headerFieldsAreTheSpecsFields() {
        assertTrue(String.join("\n", explain("RETH")).contains("VA (64 bits), R_Key (32), DMA Length (32)"));
        assertTrue(String.join("\n", explain("DETH")).contains("Q_Key (32 bits), reserved (8), SrcQP (24)"));
        assertTrue(String.join("\n", explain("AtomicETH")).contains("VA (64 bits, 8-byte aligned), R_Key (32), Swap or Add Data (64), Compare Data (64)"));
        assertTrue(String.join("\n", explain("AETH")).contains("Syndrome (8 bits: bit 7 reserved (0); bits 6-5"));
        assertTrue(String.join("\n", explain("UDP")).contains("destination port 4791"));
    }
}
