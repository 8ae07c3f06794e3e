package org.softrnic.cli.decode;

import java.io.PrintWriter;
import java.math.BigInteger;
import java.util.List;
import org.softrnic.wire.frame.DecodedFrame;
import org.softrnic.wire.pcap.CapturedFrame;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * One JSON object per frame (JSON Lines); layers are nested objects and numbers are JSON numbers. A frame that is
 * not RoCEv2 has {@code "roce":false} and the layers that name it ({@link OtherTraffic}): arp, ip, tcp, udp, icmp,
 * icmpv6, oob.
 */
public final class JsonFrameWriter {
    private final JsonMapper mapper = JsonMapper.builder().build();
    private final PrintWriter out;

    public JsonFrameWriter(PrintWriter out) {
        this.out = out;
    }

    /** @param file the file's name when several are decoded, else null */
    public void write(String file, CapturedFrame f, long relativeNanos, DecodedFrame d) {
        int length = f.originalLength();
        int captured = f.data().length;
        ObjectNode o = mapper.createObjectNode();
        if (file != null) o.put("file", file);
        o.put("frame", f.number());
        o.put("roce", d.roce());
        o.put("time_relative", java.math.BigDecimal.valueOf(relativeNanos, 9).setScale(6, java.math.RoundingMode.HALF_UP));
        o.put("length", length);
        if (captured < length) o.put("captured_length", captured);
        if (d.roce()) {
            layers(o, FrameLayers.of(d));
            o.put("icrc_ok", d.icrcOk());
            if (d.packet() != null && d.error() != org.softrnic.wire.ParseError.CAPTURE_CUT) {
                o.put("icrc_expected", DecodedFrame.icrcHex(d.icrcExpected()));
            }
            if (d.error() == null) o.putNull("error");
            else o.put("error", TextFrameWriter.verdict(d, captured, length));
        } else {
            layers(o, OtherTraffic.of(f).layers());
            if (d.error() != null) o.put("error", d.errorMessage());
        }
        out.println(mapper.writeValueAsString(o));
    }

    private void layers(ObjectNode o, List<Layer> layers) {
        for (Layer l : layers) {
            if (l.scalar()) {
                put(o, l.name(), l.fields().getFirst().value());
            } else {
                ObjectNode n = o.putObject(l.name());
                for (Field f : l.fields()) put(n, f.key(), f.value());
            }
        }
    }

    private static void put(ObjectNode n, String key, Object v) {
        switch (v) {
            case null -> n.putNull(key);
            case Integer i -> n.put(key, i);
            case Long l -> n.put(key, l);
            case BigInteger b -> n.put(key, b);
            case Boolean b -> n.put(key, b);
            default -> n.put(key, v.toString());
        }
    }
}
