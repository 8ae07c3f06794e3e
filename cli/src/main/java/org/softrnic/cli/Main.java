package org.softrnic.cli;

import java.io.PrintWriter;
import org.softrnic.cli.decode.DecodeCommand;
import org.softrnic.cli.perf.PerfCommand;
import picocli.CommandLine.Command;
import picocli.CommandLine;

@Command(name = "softrnic", mixinStandardHelpOptions = true, version = "softrnic 0.1.0",
        description = "A software RDMA NIC that speaks RoCEv2 byte-exact with Linux rxe.",
        exitCodeListHeading = "%nExit status (every command):%n",
        exitCodeList = {"0:success", "1:a failure at run time: a peer, a file, the environment (one line on stderr)",
                "2:an invalid command line: an option, a value, a combination (one line on stderr)",
                "70:a bug in softrnic (a stack trace; please report it)"},
        subcommands = {DecodeCommand.class, org.softrnic.cli.devices.DevicesCommand.class, org.softrnic.cli.check.CheckCommand.class, org.softrnic.cli.demo.DemoCommand.class, org.softrnic.cli.demo.LadderCommand.class, org.softrnic.cli.explain.ExplainCommand.class, PerfCommand.class, org.softrnic.cli.pingpong.PingpongCommand.class, org.softrnic.cli.perftest.PerftestCommand.class, org.softrnic.cli.rping.RpingCommand.class, org.softrnic.cli.ucmatose.UcmatoseCommand.class, org.softrnic.cli.udaddy.UdaddyCommand.class, org.softrnic.cli.sim.SimCommand.class, org.softrnic.cli.regcost.RegcostCommand.class,
                org.softrnic.cli.cabi.CabiPathCommand.class, CompletionCommand.class,
                CommandLine.HelpCommand.class},
        footerHeading = "%nExamples:%n",
        footer = {"  softrnic demo --list", "  softrnic demo write", "  softrnic explain rnr",
                "  softrnic ladder samples/netns_minipeer.pcap", "  softrnic decode samples/netns_minipeer.pcap",
                "  softrnic decode --explain capture.pcap",
                "  softrnic decode --json capture.pcap",
                "  softrnic perf write --size 65536 --verify",
                "  softrnic devices",
                "  source <(softrnic generate-completion)"})
public final class Main implements Runnable {
    /** Exit code for a failure at run time: a peer, a file, the environment. */
    public static final int EXIT_FAILURE = 1;
    /** Exit code for an invalid command line, as picocli and most Unix tools use. */
    public static final int EXIT_USAGE = 2;
    /** Exit code for a bug: something the user could not have caused. */
    public static final int EXIT_INTERNAL = 70;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "a command is required: " + String.join(", ", spec.subcommands().keySet()));
    }

    public static void main(String[] args) {
        CheckedOutput stdout = new CheckedOutput(new java.io.FileOutputStream(java.io.FileDescriptor.out));
        PrintWriter out = new PrintWriter(stdout, true);
        PrintWriter err = new PrintWriter(System.err, true);
        int rc = execute(out, err, args);
        out.flush();
        if (out.checkError() && rc == 0) {
            // a reader that went away (| head) needs no word; a full disk does
            String command = args.length > 0 && args[0].matches("[a-z][a-z-]{0,39}") ? " " + args[0] : "";
            if (!"Broken pipe".equals(stdout.failure())) err.println("softrnic" + command + ": cannot write output: " + stdout.failure());
            rc = EXIT_FAILURE;
        }
        System.exit(rc);
    }

    /**
     * Colour is refused when NO_COLOR is set to a non-empty value (no-color.org: an empty one does not count) or
     * the terminal is dumb.
     */
    public static boolean colorRefused(java.util.Map<String, String> env) {
        String noColor = env.get("NO_COLOR");
        return (noColor != null && !noColor.isEmpty()) || "dumb".equals(env.get("TERM"));
    }

    /**
     * picocli reports a missing parameter before an unknown option ({@code explain --foo}: "Missing required
     * parameter: 'TOPIC'"); the unknown option is what the user got wrong.
     */
    private static String unknownOption(CommandLine.ParameterException ex, CommandLine c, String[] args) {
        if (!(ex instanceof CommandLine.MissingParameterException)) return ex.getMessage();
        for (String arg : args) {
            String name = arg.contains("=") ? arg.substring(0, arg.indexOf('=')) : arg;
            if (name.startsWith("-") && name.length() > 1 && c.getCommandSpec().findOption(name) == null
                    && !c.getCommandSpec().subcommands().containsKey(name)) {
                return "Unknown option: '" + name + "'";
            }
        }
        return ex.getMessage();
    }

    /** Runs the command line with the given streams and returns the exit code. */
    public static int execute(PrintWriter out, PrintWriter err, String... args) {
        CommandLine cmd = new CommandLine(new Main());
        if (colorRefused(System.getenv()) || java.util.Arrays.asList(args).contains("--no-color")) {
            cmd.setColorScheme(CommandLine.Help.defaultColorScheme(CommandLine.Help.Ansi.OFF));
        }
        cmd.setOut(out);
        cmd.setErr(err);
        cmd.setParameterExceptionHandler((ex, a) -> {
            CommandLine c = ex.getCommandLine();
            String name = c.getCommandSpec().qualifiedName();
            err.println(name + ": " + Printable.of(unknownOption(ex, c, a)) + " (see '" + name + " --help')");
            err.flush();
            return EXIT_USAGE;
        });
        cmd.setExecutionExceptionHandler((ex, c, parseResult) -> {
            if (ex instanceof UserError) {
                err.println(c.getCommandSpec().qualifiedName() + ": " + Printable.of(ex.getMessage()));
                err.flush();
                return EXIT_USAGE;
            }
            if (ex instanceof RunFailure || ex instanceof org.softrnic.verbs.VerbsException || ex instanceof java.io.IOException
                    || ex instanceof java.io.UncheckedIOException) {
                // a verb refused (a real device's errno, or the soft RNIC's), a peer, a file: the tools print one
                // line ("Couldn't connect to ...") and exit 1
                err.println(c.getCommandSpec().qualifiedName() + ": " + Printable.of(OutputFiles.describe(ex)));
                err.flush();
                return EXIT_FAILURE;
            }
            err.println(c.getCommandSpec().qualifiedName() + ": internal error: " + ex);
            ex.printStackTrace(err);
            err.flush();
            return EXIT_INTERNAL;
        });
        int rc = cmd.execute(args);
        out.flush();
        return rc;
    }
}
