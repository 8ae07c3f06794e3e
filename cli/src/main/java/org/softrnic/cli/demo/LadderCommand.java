package org.softrnic.cli.demo;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(name = "ladder", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Draw the RoCE packets of a capture (softrnic's, rxe's, anyone's) as a ladder: the first two hosts"
                + " that exchange RoCEv2 are the two lanes, each packet an arrow with a line on what it does.",
                "A run of packets alike (same way, opcode, size and note: a WRITE's MIDDLE packets, a row of ACKs) is one row"
                        + " with its count and PSN range; each kind of packet is explained the first time it appears, and a"
                        + " legend under the ladder spells out the terms it showed."},
        footerHeading = "%nExamples:%n",
        footer = {"  softrnic ladder samples/netns_minipeer.pcap", "  softrnic ladder samples/rc_pingpong.pcap --count 20",
                "  softrnic ladder samples/rc_pingpong.pcap --frames 1066- --count 30",
                "  softrnic ladder samples/rc_pingpong.pcap --qp 0x12 --every-packet -c 12",
                "  softrnic ladder samples/rc_pingpong.pcap --psn 15770809-15770812",
                "  softrnic ladder run.pcap --svg run.svg"})
public final class LadderCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "FILE", description = "a pcap or pcapng capture")
    Path file;

    @Option(names = "--svg", paramLabel = "OUT", description = "also draw the ladder as an SVG picture (the same rows)")
    Path svg;

    @Option(names = {"-c", "--count"}, paramLabel = "N", description = "draw the first N RoCE packets only (as tshark's -c),"
            + " counted after the filters")
    Integer count;

    @Mixin
    org.softrnic.cli.decode.FilterOptions filters;

    @Option(names = "--every-packet", description = "draw every packet on its own row: no \u00d7N rows for runs of packets alike")
    boolean everyPacket;

    @Option(names = "--no-color", description = "no colour (also off when not on a terminal, or when NO_COLOR is set)")
    boolean noColor;

    @Override
    public Integer call() throws IOException {
        org.softrnic.cli.OutputFiles.check(svg, "--svg");
        if (count != null && count < 1) throw new org.softrnic.cli.UserError("--count must be 1 or more, not " + count);
        org.softrnic.cli.decode.CaptureFilter filter = filters.filter();
        var frames = org.softrnic.cli.decode.CaptureFiles.read(file, "ladder", spec.commandLine().getErr()).frames();
        List<WireStep> all = WireStep.ofCapture(frames, filter);
        List<WireStep> steps = count == null || count >= all.size() ? all : all.subList(0, count);
        PrintWriter out = spec.commandLine().getOut();
        var decoder = new org.softrnic.wire.pcap.CaptureDecoder();
        if (steps.isEmpty()) {
            boolean roce = filter.any() && frames.stream().anyMatch(f -> decoder.decode(f).roce());
            out.println(file + (roce ? ": no RoCEv2 packets pass the filters (" + filter.given() + ")" : ": no RoCEv2 packets"));
            out.flush();
            if (svg != null) throw new org.softrnic.cli.RunFailure("--svg: nothing to draw, so " + svg + " was not written");
            return 0;
        }
        String left = steps.getFirst().from();
        String right = steps.getFirst().to();
        boolean color = LadderText.colorWanted(noColor);
        org.softrnic.cli.decode.Legend legend = LadderLegend.create();
        LadderText ladder = new LadderText(out, color, left, legend);
        ladder.header(left, right);
        List<LadderRow> rows = LadderRow.of(steps, !everyPacket);
        ladder.rows(rows);
        legend.print(out);
        if (steps.size() < all.size()) {
            out.printf("(the first %d of %d RoCE packets%s: --count draws more)%n", steps.size(), all.size(),
                    filter.any() ? " that pass the filters" : "");
        }
        out.flush();
        long cut = frames.stream().filter(f -> f.data().length < f.originalLength() && filter.keepsNumber(f.number())
                && decoder.decode(f).roce()).count();
        if (cut > 0) {
            spec.commandLine().getErr().printf("softrnic ladder: %d frame%s captured in part (snaplen): drawn from their headers,"
                    + " ICRC not checked%n", cut, cut == 1 ? " was" : "s were");
            spec.commandLine().getErr().flush();
        }
        if (svg != null) Files.writeString(svg, LadderSvg.rows(file.getFileName().toString(), left, left, right, rows));
        return 0;
    }
}
