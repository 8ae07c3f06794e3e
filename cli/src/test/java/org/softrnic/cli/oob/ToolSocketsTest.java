package org.softrnic.cli.oob;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A peer's address in a message is written as people write it (RFC 5952 for IPv6), not Java's long form. */
class ToolSocketsTest {
    @ParameterizedTest
    @CsvSource({"::1, [::1]:18515", "0:0:0:0:0:0:0:1, [::1]:18515", "fd5e:0:0:0:0:0:1:2, [fd5e::1:2]:18515", "1:0:0:0:0:0:0:0, [1::]:18515",
            "2001:db8:0:1:1:1:1:1, [2001:db8:0:1:1:1:1:1]:18515", "2001:0:0:1:0:0:0:1, [2001:0:0:1::1]:18515",
            "127.0.0.1, 127.0.0.1:18515"})
    void anAddressIsWrittenInItsShortestForm(String address, String expected) {
        assertEquals(expected, ToolSockets.hostPort(new InetSocketAddress(InetAddress.ofLiteral(address), 18515)));
    }
}
