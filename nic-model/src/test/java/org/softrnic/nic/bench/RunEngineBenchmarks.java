package org.softrnic.nic.bench;

import java.util.Collection;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/** Runs {@link EngineBenchmark} with JMH's gc profiler and prints packets/s and bytes allocated per packet. */
public final class RunEngineBenchmarks {
    public static void main(String[] args) throws Exception {
        OptionsBuilder o = new OptionsBuilder();
        o.include(EngineBenchmark.class.getSimpleName());
        o.addProfiler("gc");
        if (args.length > 0 && args[0].equals("--quick")) o.warmupIterations(1).measurementIterations(2);
        Collection<RunResult> results = new Runner(o.build()).run();
        System.out.printf("%nnic-model, requester -> responder -> completer, one thread, no I/O (%d packets per op):%n",
                EngineBenchmark.PACKETS_PER_OP);
        System.out.printf("%-10s %14s %14s %16s%n", "benchmark", "messages/s", "packets/s", "B alloc/packet");
        for (RunResult r : results) {
            String name = r.getParams().getBenchmark().replaceAll(".*\\.", "");
            double ops = r.getPrimaryResult().getScore();
            var norm = r.getSecondaryResults().get("gc.alloc.rate.norm");
            double perOp = norm == null ? Double.NaN : norm.getScore();
            System.out.printf("%-10s %14.0f %14.0f %16.3f%n", name, ops * EngineBenchmark.BATCH,
                    ops * EngineBenchmark.PACKETS_PER_OP, perOp / EngineBenchmark.PACKETS_PER_OP);
        }
    }
}
