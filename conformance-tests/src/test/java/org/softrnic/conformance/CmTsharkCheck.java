package org.softrnic.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Every CM MAD of a capture, as `softrnic decode --json` reads it and as tshark's InfiniBand dissector does:
 * the MAD header and each message's fields must be equal. Not compared: the REQ's flow-label word, which
 * tshark 4.0 misreads (it shifts the flow label by 12 bits), and fields tshark has no name for.
 */
public final class CmTsharkCheck {
    /** Ours (section.field in decode --json) beside tshark's field, per message; "mad" for every message. */
    private static final Map<String, String[][]> FIELDS = Map.of(
            "mad", new String[][] {{"mad.mgmt_class", "infiniband.mad.mgmtclass"}, {"mad.class_version", "infiniband.mad.classversion"},
                    {"mad.method", "infiniband.mad.method"}, {"mad.tid", "infiniband.mad.transactionid"},
                    {"mad.attr_id", "infiniband.mad.attributeid"}, {"mad.attr_mod", "infiniband.mad.attributemodifier"}},
            "REQ", new String[][] {{"cm.service_id", "infiniband.cm.req.serviceid"}, {"cm.local_ca_guid", "infiniband.cm.req.localcaguid"},
                    {"cm.local_qpn", "infiniband.cm.req.localqpn"}, {"cm.responder_resources", "infiniband.cm.req.responderres"},
                    {"cm.initiator_depth", "infiniband.cm.req.initdepth"}, {"cm.starting_psn", "infiniband.cm.req.startpsn"},
                    {"cm.remote_cm_response_timeout", "infiniband.cm.req.remoteresptout"},
                    {"cm.local_cm_response_timeout", "infiniband.cm.req.localresptout"}, {"cm.retry_count", "infiniband.cm.req.retrcount"},
                    {"cm.partition_key", "infiniband.cm.req.pkey"}, {"cm.path_mtu", "infiniband.cm.req.pppmtu"},
                    {"cm.rnr_retry_count", "infiniband.cm.req.rnrretrcount"}, {"cm.max_cm_retries", "infiniband.cm.req.maxcmretr"},
                    {"cm.primary_local_lid", "infiniband.cm.req.prim_locallid"}, {"cm.primary_remote_lid", "infiniband.cm.req.prim_remotelid"},
                    {"cm.primary_traffic_class", "infiniband.cm.req.prim_tfcclass"}, {"cm.primary_hop_limit", "infiniband.cm.req.prim_hoplim"},
                    {"cm.primary_local_ack_timeout", "infiniband.cm.req.prim_localacktout"},
                    {"cma.src_port", "infiniband.cm.req.ip_cm.sport"}, {"cma.src_ip", "infiniband.cm.req.ip_cm.sip4"},
                    {"cma.dst_ip", "infiniband.cm.req.ip_cm.dip4"}},
            "REP", new String[][] {{"cm.remote_comm_id", "infiniband.cm.rep.remotecommid"}, {"cm.local_qpn", "infiniband.cm.rep.localqpn"},
                    {"cm.starting_psn", "infiniband.cm.rep.startpsn"}, {"cm.responder_resources", "infiniband.cm.rep.respres"},
                    {"cm.initiator_depth", "infiniband.cm.rep.initdepth"}, {"cm.target_ack_delay", "infiniband.cm.rep.tgtackdelay"},
                    {"cm.rnr_retry_count", "infiniband.cm.rep.rnrretrcount"}, {"cm.local_ca_guid", "infiniband.cm.rep.localcaguid"}},
            "RTU", new String[][] {{"cm.local_comm_id", "infiniband.cm.rtu.localcommid"}, {"cm.remote_comm_id", "infiniband.cm.rtu.remotecommid"}},
            "REJ", new String[][] {{"cm.local_comm_id", "infiniband.cm.rej.localcommid"}, {"cm.remote_comm_id", "infiniband.cm.rej.remotecommid"},
                    {"cm.message_rejected", "infiniband.cm.rej.msgrej"}, {"cm.reason", "infiniband.cm.rej.reason"}},
            "DREQ", new String[][] {{"cm.local_comm_id", "infiniband.cm.dreq.localcommid"}, {"cm.remote_comm_id", "infiniband.cm.dreq.remotecommid"}},
            "DREP", new String[][] {{"cm.local_comm_id", "infiniband.cm.drsp.localcommid"}, {"cm.remote_comm_id", "infiniband.cm.drsp.remotecommid"}});

    private CmTsharkCheck() {
    }

    /** Compares every CM MAD; returns how many fields were compared. */
    public static int assertTsharkAgrees(Path pcap, Path dir) throws Exception {
        Tools.require("tshark");
        List<String> tsharkFields = new ArrayList<>();
        for (String[][] pairs : FIELDS.values()) for (String[] p : pairs) if (!tsharkFields.contains(p[1])) tsharkFields.add(p[1]);
        List<String> cmd = new ArrayList<>(List.of("tshark", "-r", pcap.toString(), "-Y", "infiniband.mad", "-T", "fields",
                "-E", "separator=|", "-E", "occurrence=f", "-e", "frame.number"));
        for (String f : tsharkFields) cmd.addAll(List.of("-e", f));
        Map<Long, String[]> theirs = new HashMap<>();
        for (String line : Tools.run(cmd, dir).strip().split("\n")) {
            if (line.isBlank()) continue;
            String[] v = line.split("\\|", -1);
            theirs.put(Long.parseLong(v[0].strip()), v);
        }
        DecodeCommandTest.Result r = DecodeCommandTest.run("decode", "--json", pcap.toString());
        assertEquals(0, r.code(), r.err());
        JsonMapper json = JsonMapper.builder().build();
        int compared = 0;
        int mads = 0;
        for (String line : r.out().split("\n")) {
            if (!line.contains("\"mad\"")) continue;
            JsonNode frame = json.readTree(line);
            long number = frame.get("frame").asLong();
            String[] t = theirs.get(number);
            if (t == null) throw new AssertionError("tshark dissects no MAD in frame " + number);
            mads++;
            String msg = frame.path("cm").path("msg").asString("");
            for (String key : List.of("mad", msg)) {
                String[][] pairs = FIELDS.get(key);
                if (pairs == null) continue;
                for (String[] p : pairs) {
                    String[] path = p[0].split("\\.");
                    JsonNode ours = frame.path(path[0]).path(path[1]);
                    String tv = t[1 + tsharkFields.indexOf(p[1])].strip();
                    String where = "frame " + number + " " + msg + " " + p[0] + " (tshark " + p[1] + "=" + tv + ")";
                    if (ours.isString()) assertEquals(ours.asString(), tv, where);
                    else assertEquals(new java.math.BigInteger(ours.asString()), number(tv), where);
                    compared++;
                }
            }
        }
        assertEquals(theirs.size(), mads, "the MADs tshark dissects are the ones softrnic decodes");
        return compared;
    }

    private static java.math.BigInteger number(String s) {
        return s.startsWith("0x") ? new java.math.BigInteger(s.substring(2), 16) : new java.math.BigInteger(s);
    }
}
