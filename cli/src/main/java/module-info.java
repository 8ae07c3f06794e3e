/** The softrnic command (picocli). Exports nothing: it is a program, not a library. */
module org.softrnic.cli {
    requires org.softrnic.emulator;
    requires org.softrnic.wire;
    requires info.picocli;
    requires tools.jackson.databind;
    requires java.xml;

    // picocli sets the commands' options and reads their annotations through reflection
    opens org.softrnic.cli to info.picocli;
    opens org.softrnic.cli.cabi to info.picocli;
    opens org.softrnic.cli.check to info.picocli;
    opens org.softrnic.cli.decode to info.picocli;
    opens org.softrnic.cli.demo to info.picocli;
    opens org.softrnic.cli.devices to info.picocli;
    opens org.softrnic.cli.explain to info.picocli;
    opens org.softrnic.cli.oob to info.picocli;
    opens org.softrnic.cli.perf to info.picocli;
    opens org.softrnic.cli.perftest to info.picocli;
    opens org.softrnic.cli.pingpong to info.picocli;
    opens org.softrnic.cli.rping to info.picocli;
    opens org.softrnic.cli.ucmatose to info.picocli;
}
