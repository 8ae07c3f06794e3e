package org.softrnic.wire.pcap;

/**
 * One captured frame.
 *
 * @param number         1-based position in the file, as Wireshark numbers frames
 * @param timestampNanos capture time, nanoseconds since the epoch
 * @param linkTypeValue  the raw link-type number from the file
 * @param data           the captured bytes
 * @param originalLength the frame's length on the wire (may exceed {@code data.length} if truncated)
 */
public record CapturedFrame(int number, long timestampNanos, int linkTypeValue, byte[] data, int originalLength) {
    /** The known link type, or null when the file uses one softrnic does not decode. */
    public LinkType linkType() {
        return LinkType.of(linkTypeValue);
    }
}
