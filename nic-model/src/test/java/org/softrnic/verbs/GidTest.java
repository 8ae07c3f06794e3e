package org.softrnic.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** A GID read from 16 bytes inside a larger array (an IPv6 packet) is the GID of those 16 bytes alone. */
class GidTest {
    @Test
    void readsTheSixteenBytesAtTheOffset() {
        byte[] packet = new byte[40];
        byte[] address = Gid.parse("2001:db8::1:2").toInetAddress().getAddress();
        System.arraycopy(address, 0, packet, 24, 16);
        packet[23] = (byte) 0xff; // the bytes around it are not part of it
        assertEquals(Gid.parse("2001:db8::1:2"), Gid.of(packet, 24));
        assertEquals(Gid.of(address), Gid.of(packet, 24));
        assertThrows(IndexOutOfBoundsException.class, () -> Gid.of(packet, 25));
        assertThrows(IllegalArgumentException.class, () -> Gid.of(new byte[15]));
    }
}
