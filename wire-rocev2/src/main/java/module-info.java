/** RoCEv2 packet formats: headers, frames, the ICRC, captures. A library on its own: everything is exported. */
module org.softrnic.wire {
    exports org.softrnic.wire;
    exports org.softrnic.wire.frame;
    exports org.softrnic.wire.header;
    exports org.softrnic.wire.icrc;
    exports org.softrnic.wire.mad;
    exports org.softrnic.wire.packet;
    exports org.softrnic.wire.pcap;
}
