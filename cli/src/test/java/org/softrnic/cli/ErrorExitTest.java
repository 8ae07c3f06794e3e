package org.softrnic.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;

/** Failures the user's environment causes end in one line and exit 1, as rdma-core's tools end, not in a stack trace. */
class ErrorExitTest {
    @Test
    void aServerThatIsNotThereIsOneLineAndExitOne() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort(); // free once closed: nothing listens there
        }
        StringWriter err = new StringWriter();
        int rc = Main.execute(new PrintWriter(new StringWriter()), new PrintWriter(err), "pingpong", "rc", "--link", "udp:127.0.0.1:" + port,
                "-p", "" + port, "127.0.0.1");
        assertEquals(1, rc, err.toString());
        assertTrue(err.toString().contains("Couldn't connect to 127.0.0.1:" + port), err.toString());
        assertFalse(err.toString().contains("\tat "), "a stack trace:\n" + err);
    }

    @Test
    void aLinkThatCannotBeIsAUsageError() {
        StringWriter err = new StringWriter();
        int rc = Main.execute(new PrintWriter(new StringWriter()), new PrintWriter(err), "pingpong", "rc", "--link", "udp:127.0.0.1:0");
        assertEquals(Main.EXIT_USAGE, rc, err.toString());
        assertTrue(err.toString().contains("--link udp:127.0.0.1:0: the UDP port must be 1..65535 here, not 0"), err.toString());
        assertFalse(err.toString().contains("\tat "), "a stack trace:\n" + err);
    }
}
