package org.softrnic.cli;

import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/** Files a command will write, checked before it runs (so a ladder is not printed before the failure), and why one failed. */
public final class OutputFiles {
    private OutputFiles() {
    }

    /** Fails (exit 1) when {@code file} cannot be written: an empty name, a directory, a missing or closed folder. */
    public static void check(Path file, String what) {
        if (file == null) return;
        if (file.toString().isEmpty()) throw new RunFailure(what + ": an empty file name");
        if (Files.isDirectory(file)) throw new RunFailure(what + " " + file + ": is a directory");
        Path dir = file.toAbsolutePath().getParent();
        if (dir != null && !Files.isDirectory(dir)) throw new RunFailure(what + " " + file + ": no such directory " + dir);
        boolean writable = Files.exists(file) ? Files.isWritable(file) : dir == null || Files.isWritable(dir);
        if (!writable) throw new RunFailure(what + " " + file + ": permission denied");
    }

    /** An I/O failure in words: the file and the reason, not the exception's class or a bare path. */
    public static String describe(Throwable e) {
        Throwable t = e instanceof java.io.UncheckedIOException u && u.getCause() != null ? u.getCause() : e;
        if (t instanceof FileSystemException f) {
            String file = f.getFile() == null || f.getFile().isEmpty() ? "(an empty file name)" : f.getFile();
            String why = t instanceof NoSuchFileException ? "no such file or directory"
                    : t instanceof AccessDeniedException ? "permission denied"
                    : f.getReason() != null ? f.getReason() : t.getClass().getSimpleName();
            String prefix = e != t && e.getMessage() != null && !e.getMessage().contains(f.getFile() == null ? "\0" : f.getFile())
                    ? e.getMessage().replaceAll(":? ?java\\.\\S+Exception.*", "") + ": " : "";
            return prefix + file + ": " + why;
        }
        String m = e.getMessage();
        if (m == null) return t.getClass().getSimpleName();
        return m.replace("java.io.IOException: ", "").replace("java.io.UncheckedIOException: ", "");
    }
}
