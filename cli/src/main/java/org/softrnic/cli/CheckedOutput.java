package org.softrnic.cli;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/**
 * Standard output that remembers why a write failed: a PrintWriter over it swallows the IOException, and a
 * command whose output was lost (a full disk, a closed pipe) must not exit 0.
 */
final class CheckedOutput extends FilterOutputStream {
    private volatile IOException failure;

    CheckedOutput(OutputStream out) {
        super(out);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        try {
            out.write(b, off, len);
        } catch (IOException e) {
            if (failure == null) failure = e;
            throw e;
        }
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void flush() throws IOException {
        try {
            out.flush();
        } catch (IOException e) {
            if (failure == null) failure = e;
            throw e;
        }
    }

    /** Why the first write failed ("No space left on device"), or null. */
    String failure() {
        IOException e = failure;
        return e == null ? null : e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }
}
