/**
 * The verbs API's providers: the soft RNIC (its fabric, devices and configuration) and real devices through
 * libibverbs, with the links, the fabric model and the JUnit support. Exported to everyone: the soft
 * provider's entry points, its configuration and the ibverbs provider's; the rest only to the CLI.
 */
module org.softrnic.emulator {
    requires transitive org.softrnic.nic;
    requires org.softrnic.wire;
    requires tools.jackson.databind;
    requires tools.jackson.dataformat.yaml;
    requires com.fasterxml.jackson.annotation;
    requires jdk.net;
    requires static org.junit.jupiter.api;

    exports org.softrnic.emulator.soft;
    exports org.softrnic.emulator.config;
    exports org.softrnic.emulator.ibverbs;
    exports org.softrnic.emulator.junit;

    exports org.softrnic.emulator.cabi to org.softrnic.cli;
    exports org.softrnic.emulator.concurrent to org.softrnic.cli;
    exports org.softrnic.emulator.cq to org.softrnic.cli;
    exports org.softrnic.emulator.fabric to org.softrnic.cli;
    exports org.softrnic.emulator.link to org.softrnic.cli;
    exports org.softrnic.emulator.os to org.softrnic.cli;
    exports org.softrnic.emulator.perf to org.softrnic.cli;
    exports org.softrnic.emulator.sim to org.softrnic.cli;

    // configuration files and JSON reports are read and written by Jackson, through reflection
    opens org.softrnic.emulator.config to tools.jackson.databind;
    opens org.softrnic.emulator.perf to tools.jackson.databind;

    provides org.softrnic.verbs.cm.CmProvider with org.softrnic.emulator.soft.SoftCmProvider,
            org.softrnic.emulator.ibverbs.IbvCmProvider;
    provides org.softrnic.verbs.RdmaProvider with org.softrnic.emulator.soft.SoftProvider,
            org.softrnic.emulator.ibverbs.IbverbsProvider;
}
