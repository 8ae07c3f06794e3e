package org.softrnic.cli.decode;

import java.util.List;
import picocli.CommandLine.Option;

/** The filters decode and ladder share, as tshark-like options (a picocli mixin); --count applies after them. */
public final class FilterOptions {
    @Option(names = "--frames", paramLabel = "FROM-TO",
            description = "only frames FROM to TO (or N alone, or FROM- to the end), numbered from 1 over every frame of"
                    + " the file, RoCE or not, as tshark and Wireshark number them")
    String frames;

    @Option(names = "--psn", paramLabel = "FROM-TO",
            description = "only packets whose BTH PSN is FROM to TO (or N alone), decimal or 0x hex; FROM above TO wraps"
                    + " through 2^24 to 0; frames without a BTH are left out")
    String psn;

    @Option(names = "--qp", paramLabel = "QPN", split = ",",
            description = "only packets to this BTH destination QP, decimal or 0x hex; repeat it or give a list: each"
                    + " direction of a connection goes to its own QP, so give both QPNs to see both")
    List<String> qps;

    /** The filter asked for; a bad value is a UserError (exit 2). */
    public CaptureFilter filter() {
        return CaptureFilter.parse(frames, psn, qps);
    }
}
