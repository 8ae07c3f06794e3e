package org.softrnic.wire.bench;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/** Runs {@link WireBenchmark} and prints GB/s of each benchmark and its ratio to the CRC32 ceiling. */
public final class RunWireBenchmarks {
    public static void main(String[] args) throws Exception {
        OptionsBuilder o = new OptionsBuilder();
        o.include(WireBenchmark.class.getSimpleName());
        if (args.length > 0 && args[0].equals("--quick")) o.forks(1).warmupIterations(1).measurementIterations(2);
        Collection<RunResult> results = new Runner(o.build()).run();
        Map<String, double[]> gbps = new LinkedHashMap<>();
        for (RunResult r : results) {
            String name = r.getParams().getBenchmark().replaceAll(".*\\.", "");
            double opsPerSec = r.getPrimaryResult().getScore();
            double err = r.getPrimaryResult().getScoreError();
            double bytes = WireBenchmark.icrcBytes();
            gbps.put(name, new double[] {opsPerSec * bytes / 1e9, err * bytes / 1e9, opsPerSec});
        }
        double ceiling = gbps.get("crc32Ceiling")[0];
        System.out.printf("%nwire-rocev2, 4 KiB MTU packet (%d bytes under the ICRC), one thread:%n", WireBenchmark.icrcBytes());
        System.out.printf("%-16s %10s %10s %12s %8s%n", "benchmark", "GB/s", "+/-", "packets/s", "ratio");
        for (Map.Entry<String, double[]> e : gbps.entrySet()) {
            double[] v = e.getValue();
            System.out.printf("%-16s %10.2f %10.2f %12.0f %8.2f%n", e.getKey(), v[0], v[1], v[2], v[0] / ceiling);
        }
    }
}
