/**
 * The verbs API (org.softrnic.verbs, exported to everyone: the one package a user imports) and the RNIC's
 * engine, exported only to the modules built on it: the engine's classes may change in any release.
 */
module org.softrnic.nic {
    requires org.softrnic.wire;

    exports org.softrnic.verbs;
    exports org.softrnic.verbs.cm;

    exports org.softrnic.nic to org.softrnic.emulator, org.softrnic.cli;
    exports org.softrnic.nic.cc to org.softrnic.emulator, org.softrnic.cli;
    exports org.softrnic.nic.cm to org.softrnic.emulator, org.softrnic.cli;
    exports org.softrnic.nic.cq to org.softrnic.emulator, org.softrnic.cli;
    exports org.softrnic.nic.mem to org.softrnic.emulator, org.softrnic.cli;
    exports org.softrnic.nic.qp to org.softrnic.emulator, org.softrnic.cli;
    exports org.softrnic.nic.sim to org.softrnic.emulator, org.softrnic.cli;
    exports org.softrnic.nic.time to org.softrnic.emulator, org.softrnic.cli;
    exports org.softrnic.nic.transport to org.softrnic.emulator, org.softrnic.cli;

    uses org.softrnic.verbs.RdmaProvider;
    uses org.softrnic.verbs.cm.CmProvider;
}
