package org.softrnic.cli;

import java.util.concurrent.Callable;
import picocli.AutoComplete;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * The bash/zsh completion script. picocli's own generate-completion took any extra word and exited 0; this one
 * declares no arguments, so a stray one is a usage error like everywhere else.
 */
@Command(name = "generate-completion", mixinStandardHelpOptions = true,
        description = "Print a bash/zsh completion script for softrnic: commands, options, scenarios, OPs, TYPEs, TESTs and"
                + " explain's topics.",
        footerHeading = "%nExamples:%n", footer = {"  source <(softrnic generate-completion)"})
public final class CompletionCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().getOut().print(AutoComplete.bash("softrnic", spec.root().commandLine()));
        spec.commandLine().getOut().flush();
        return 0;
    }
}
