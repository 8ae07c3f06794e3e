package org.softrnic.cli.decode;

import java.io.PrintWriter;
import java.math.BigInteger;
import java.util.List;
import org.softrnic.wire.frame.DecodedFrame;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/** One JSON object per frame (JSON Lines); layers are nested objects and numbers are JSON numbers. */
public final class JsonFrameWriter {
    private final JsonMapper mapper = JsonMapper.builder().build();
    private final PrintWriter out;

    public JsonFrameWriter(PrintWriter out) {
        this.out = out;
    }

    /** @param captured the bytes the capture kept of the frame's {@code length} */
    public void write(String file, int number, long relativeNanos, int length, int captured, DecodedFrame d) {
        ObjectNode o = mapper.createObjectNode();
        if (file != null) o.put("file", file);
        o.put("frame", number);
        o.put("roce", d.roce());
        if (d.roce()) {
            o.put("time_relative", java.math.BigDecimal.valueOf(relativeNanos, 9).setScale(6, java.math.RoundingMode.HALF_UP));
            o.put("length", length);
            if (captured < length) o.put("captured_length", captured);
            List<Layer> layers = FrameLayers.of(d);
            for (Layer l : layers) {
                if (l.scalar()) {
                    put(o, l.name(), l.fields().getFirst().value());
                } else {
                    ObjectNode n = o.putObject(l.name());
                    for (Field f : l.fields()) put(n, f.key(), f.value());
                }
            }
            o.put("icrc_ok", d.icrcOk());
            if (d.packet() != null && d.error() != org.softrnic.wire.ParseError.CAPTURE_CUT) {
                o.put("icrc_expected", DecodedFrame.icrcHex(d.icrcExpected()));
            }
            if (d.error() == null) o.putNull("error");
            else o.put("error", TextFrameWriter.verdict(d, captured, length));
        } else if (d.error() != null) {
            o.put("error", d.errorMessage());
        }
        out.println(mapper.writeValueAsString(o));
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
