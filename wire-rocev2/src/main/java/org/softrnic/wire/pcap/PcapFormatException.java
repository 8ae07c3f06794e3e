package org.softrnic.wire.pcap;

import java.io.IOException;

/** The file is not a pcap or pcapng capture, or is cut short or corrupt. */
public final class PcapFormatException extends IOException {
    public PcapFormatException(String message) {
        super(message);
    }
}
