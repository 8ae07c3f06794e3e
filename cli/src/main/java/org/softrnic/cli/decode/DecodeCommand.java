package org.softrnic.cli.decode;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.softrnic.cli.UserError;
import org.softrnic.wire.frame.DecodedFrame;
import org.softrnic.wire.frame.FrameCodec;
import org.softrnic.wire.pcap.CaptureDecoder;
import org.softrnic.wire.pcap.CapturedFrame;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(name = "decode", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Decode every frame of pcap/pcapng files layer by layer, with the ICRC verdict.",
                "A frame that is not RoCEv2 is named in one line: ARP, IP with its protocol and ports, and the TCP"
                        + " exchange of ibv_*_pingpong and perftest (port 18515) with its message decoded. The text ends"
                        + " with a legend of the layers and abbreviations it showed."},
        footerHeading = "%nExamples:%n",
        footer = {"  softrnic decode samples/netns_minipeer.pcap",
                "  softrnic decode --explain samples/netns_minipeer.pcap",
                "  softrnic decode samples/rc_pingpong.pcap --frames 13-25",
                "  softrnic decode samples/rc_pingpong.pcap --qp 0x11 --psn 0xf0a4b9-0xf0a4c0",
                "  softrnic decode samples/rc_pingpong.pcap --frames 1066- --qp 0x12 -c 10",
                "  softrnic decode --json capture.pcapng | jq 'select(.roce and .icrc_ok==false)'",
                "  softrnic decode --json capture.pcap | jq 'select(.oob)'"})
public final class DecodeCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "FILE", description = "pcap or pcapng files (Ethernet, raw IP, Linux SLL/SLL2)")
    List<Path> files;

    @Option(names = "--json", description = "one JSON object per frame (JSON Lines)")
    boolean json;

    @Option(names = "--explain", description = "one line of meaning per field")
    boolean explain;

    @Option(names = "--udp-port", paramLabel = "PORT", defaultValue = "4791",
            description = "UDP destination port that marks RoCEv2 (default: ${DEFAULT-VALUE})")
    int port;

    @Option(names = {"-c", "--count"}, paramLabel = "N",
            description = "decode the first N frames only (as tshark's -c), over all the files; counted after the filters")
    Integer count;

    @Mixin
    FilterOptions filters;

    @Option(names = "--strict", description = "exit 1 if any RoCEv2 frame fails to decode or verify, a capture's last record is"
            + " cut short, or its link type is not supported")
    boolean strict;

    @Option(names = "--check-udp-checksum",
            description = "also verify non-zero UDP checksums (off by default, as in Wireshark: captures on a sending host hold unfinished offloaded checksums)")
    boolean checkUdpChecksum;

    @Override
    public Integer call() {
        UserError.checkPort("--udp-port", port);
        if (json && explain) throw new UserError("--explain annotates the text output; --json already names every field");
        if (count != null && count < 1) throw new UserError("--count must be 1 or more, not " + count);
        CaptureFilter filter = filters.filter();
        long left = count == null ? Long.MAX_VALUE : count;
        long passed = 0;
        PrintWriter out = spec.commandLine().getOut();
        CaptureDecoder decoder = new CaptureDecoder(new FrameCodec(port, checkUdpChecksum));
        JsonFrameWriter jsonOut = new JsonFrameWriter(out);
        Legend legend = DecodeLegend.create();
        TextFrameWriter textOut = new TextFrameWriter(out, explain, legend);
        int bad = 0;
        int unreadable = 0;
        for (Path file : files) {
            CaptureFiles.Loaded capture;
            try {
                capture = CaptureFiles.read(file, "decode", spec.commandLine().getErr());
            } catch (org.softrnic.cli.RunFailure e) {
                if (files.size() == 1) throw e;
                // one unreadable file of several: said, and the others are still decoded
                spec.commandLine().getErr().println("softrnic decode: " + e.getMessage());
                spec.commandLine().getErr().flush();
                unreadable++;
                continue;
            }
            if (capture.incomplete()) bad++;
            List<CapturedFrame> frames = capture.frames();
            if (!json && files.size() > 1 && left > 0) out.printf("== %s%n", file);
            long start = frames.isEmpty() ? 0 : frames.getFirst().timestampNanos();
            long passedHere = 0;
            for (int i = 0; i < frames.size(); i++) {
                CapturedFrame f = frames.get(i);
                if (left <= 0) {
                    // past --count the frames that pass are only counted, for the line that says how many there were
                    if (!filter.any()) {
                        passedHere += frames.size() - i;
                        break;
                    }
                    if (filter.byNumberOnly() ? filter.keepsNumber(f.number()) : filter.keeps(f.number(), decoder.decode(f))) passedHere++;
                    continue;
                }
                if (!filter.keepsNumber(f.number())) continue;
                DecodedFrame d = decoder.decode(f);
                if (!filter.keeps(f.number(), d)) continue;
                passedHere++;
                left--;
                long relative = f.timestampNanos() - start;
                if (d.roce() && !d.icrcOk()) bad++;
                if (json) jsonOut.write(files.size() > 1 ? file.toString() : null, f, relative, d);
                else textOut.write(f, relative, d, explain ? CaptureDecoder.ipPacket(f, d) : null);
            }
            if (filter.any() && passedHere == 0) {
                // JSON Lines stay JSON: the word goes to stderr
                PrintWriter to = json ? spec.commandLine().getErr() : out;
                to.printf("%s: no frames pass the filters (%s)%n", file, filter.given());
                to.flush();
            }
            passed += passedHere;
        }
        if (!json) legend.print(out);
        if (!json && count != null && passed > count) {
            out.printf("(the first %d of %d frames%s: --count decodes more)%n", count, passed, filter.any() ? " that pass the filters" : "");
        }
        out.flush();
        if (unreadable > 0) return 1;
        return strict && bad > 0 ? 1 : 0;
    }
}
