package org.softrnic.cli.decode;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.softrnic.cli.RunFailure;
import org.softrnic.wire.pcap.PcapFormatException;
import org.softrnic.wire.pcap.PcapReader;

/**
 * A capture file as decode and ladder read it: every complete record, a warning on stderr when the last one
 * is cut short (a capture ended mid-write; Wireshark too shows the records before), and a failure with its
 * reason (no such file, a directory, permission denied, not a capture) that exits 1.
 */
public final class CaptureFiles {
    private CaptureFiles() {
    }

    /** What was read: every complete record, and whether something was left out (said on stderr already). */
    public record Loaded(java.util.List<org.softrnic.wire.pcap.CapturedFrame> frames, boolean incomplete) {}

    public static Loaded read(Path file, String command, PrintWriter err) {
        if (file.toString().isEmpty()) throw new RunFailure("an empty file name");
        try {
            if (Files.isDirectory(file)) throw new RunFailure(file + ": is a directory, not a capture file");
            PcapReader.Capture c = PcapReader.readCapture(file);
            if (c.cutShort() != null) {
                err.println("softrnic " + command + ": " + file + ": " + c.cutShort() + "; the " + c.frames().size()
                        + " complete records before it are shown");
            }
            java.util.SortedSet<Integer> unknown = new java.util.TreeSet<>();
            for (var f : c.frames()) if (f.linkType() == null) unknown.add(f.linkTypeValue());
            if (!unknown.isEmpty()) {
                err.println("softrnic " + command + ": " + file + ": link type " + unknown.stream().map(String::valueOf)
                        .collect(java.util.stream.Collectors.joining(", ")) + " is not supported (Ethernet, raw IP, Linux SLL"
                        + " and SLL2 are): those frames are not decoded");
            }
            err.flush();
            return new Loaded(c.frames(), c.cutShort() != null || !unknown.isEmpty());
        } catch (NoSuchFileException e) {
            throw new RunFailure(file + ": no such file");
        } catch (AccessDeniedException e) {
            throw new RunFailure(file + ": permission denied");
        } catch (PcapFormatException e) {
            throw new RunFailure(e.getMessage()); // names the file already
        } catch (IOException e) {
            throw new RunFailure(file + ": cannot be read (" + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()) + ")");
        }
    }
}
