package org.softrnic.wire.icrc;

import java.util.zip.CRC32;

/**
 * Finds the IPv4 identification a RoCEv2 packet was sent with from its ICRC, where a kernel UDP socket
 * hides the IP header: every other field the ICRC covers is known or masked, and CRC-32 is affine, so the
 * ICRC with identification {@code id} is the ICRC with 0 XOR a linear function of {@code id}'s 16 bits.
 * <p>
 * That function is the raw (zero-initialised) CRC of the two identification bytes, carried through the
 * bytes after them, which multiplies it by x^(8d) modulo the CRC polynomial (d bytes follow). So the
 * received ICRC XOR the ICRC computed with identification 0, multiplied by x^(-8d), must be the raw CRC
 * of the identification: a 32x16 system over GF(2), solved here by a reduction made once. A solution
 * means the packet is intact, except with probability 2^-16 per corrupted packet; none means it was
 * changed on the way. Polynomials are in CRC-32's reflected order (x^0 is bit 31). Stateless, no
 * allocation; a call costs at most 14 polynomial products.
 */
public final class Ipv4IdSolver {
    /** CRC-32's polynomial without its x^32 term, reflected. */
    private static final int POLY = 0xedb88320;
    /** The polynomial 1. */
    private static final int ONE = 0x80000000;

    /** x^(-8 * 2^k) mod P: undoing 2^k bytes of the CRC. */
    private static final int[] UNDO_BYTES = new int[32];
    /** x^(8 * 2^k) mod P: carrying a raw CRC through 2^k bytes. */
    private static final int[] CARRY_BYTES = new int[32];
    /** The raw CRC of the identification's high byte (followed by a zero byte) and of its low byte. */
    private static final int[] RAW_HIGH = new int[256];
    private static final int[] RAW_LOW = new int[256];
    /** The reduction: row i has the pivot bit PIVOT[i], set in no other row, and stands for the identification ROW_ID[i]. */
    private static final int[] PIVOT = new int[16];
    private static final int[] ROW_ID = new int[16];

    static {
        // x^-1 = x^31 + (p(x) - 1)/x, since x * x^-1 = x^32 + p(x) - 1 = 1 mod P
        int inverseX = ((POLY & 0x7fffffff) << 1) | 1;
        int undoByte = ONE;
        for (int i = 0; i < 8; i++) undoByte = multiply(undoByte, inverseX);
        UNDO_BYTES[0] = undoByte;
        for (int k = 1; k < 32; k++) UNDO_BYTES[k] = multiply(UNDO_BYTES[k - 1], UNDO_BYTES[k - 1]);
        CARRY_BYTES[0] = ONE >>> 8; // x^8
        for (int k = 1; k < 32; k++) CARRY_BYTES[k] = multiply(CARRY_BYTES[k - 1], CARRY_BYTES[k - 1]);
        int zeros = crc((byte) 0, (byte) 0);
        for (int b = 0; b < 256; b++) {
            RAW_HIGH[b] = crc((byte) b, (byte) 0) ^ zeros;
            RAW_LOW[b] = crc((byte) 0, (byte) b) ^ zeros;
        }
        reduce();
    }

    private Ipv4IdSolver() {
    }

    /**
     * The identification that explains the difference, or -1 when none does (the packet was corrupted).
     *
     * @param icrcDifference the received ICRC XOR the ICRC computed with identification 0
     * @param ipTotalLength  the IPv4 total length: the span after the identification (IPv4 bytes 6 on, up to
     *                       the ICRC) is that less 10 bytes
     */
    public static int identification(int icrcDifference, int ipTotalLength) {
        if (ipTotalLength < 10) throw new IllegalArgumentException("IPv4 total length " + ipTotalLength);
        int raw = multiply(undo(ipTotalLength - 10), icrcDifference);
        int id = 0;
        for (int i = 0; i < 16; i++) if ((raw & PIVOT[i]) != 0) id ^= ROW_ID[i];
        return rawCrc(id) == raw ? id : -1;
    }

    /**
     * The other way: what to XOR into the ICRC computed with identification 0 to get the ICRC with
     * {@code id}, for a packet of {@code carry = carry(ipTotalLength)} (equal-sized packets share it). A link
     * whose kernel numbers a burst's packets itself (UDP GSO counts the identification up per segment) stamps
     * each segment's ICRC so.
     */
    public static int icrcDifference(int id, int carry) {
        return multiply(carry, rawCrc(id));
    }

    /** x^(8d) mod P, d the bytes after the identification in a packet of this IPv4 total length. */
    public static int carry(int ipTotalLength) {
        if (ipTotalLength < 10) throw new IllegalArgumentException("IPv4 total length " + ipTotalLength);
        return power(CARRY_BYTES, ipTotalLength - 10);
    }

    /** The raw CRC of the identification's two bytes, big-endian as on the wire. */
    static int rawCrc(int id) {
        return RAW_HIGH[(id >>> 8) & 0xff] ^ RAW_LOW[id & 0xff];
    }

    /** x^(-8n) mod P. */
    private static int undo(int n) {
        return power(UNDO_BYTES, n);
    }

    /** The product of {@code bytes[k]} over the bits k set in {@code n}: x^(+-8n) from the table of x^(+-8 * 2^k). */
    private static int power(int[] bytes, int n) {
        int r = ONE;
        for (int k = 0; n != 0; k++, n >>>= 1) if ((n & 1) != 0) r = multiply(r, bytes[k]);
        return r;
    }

    /** a(x) b(x) mod P, reflected. */
    static int multiply(int a, int b) {
        int p = 0;
        for (int m = ONE; m != 0 && a != 0; m >>>= 1) {
            if ((a & m) != 0) {
                p ^= b;
                a ^= m;
            }
            b = (b & 1) != 0 ? (b >>> 1) ^ POLY : b >>> 1;
        }
        return p;
    }

    /** Gauss-Jordan over the 16 columns of the system: each row ends with a pivot no other row has. */
    private static void reduce() {
        int[] rows = new int[16];
        int[] ids = new int[16];
        for (int b = 0; b < 16; b++) {
            rows[b] = rawCrc(1 << b);
            ids[b] = 1 << b;
        }
        int rank = 0;
        for (int bit = 31; bit >= 0 && rank < 16; bit--) {
            int mask = 1 << bit;
            int r = rank;
            while (r < 16 && (rows[r] & mask) == 0) r++;
            if (r == 16) continue;
            int t = rows[r]; rows[r] = rows[rank]; rows[rank] = t;
            t = ids[r]; ids[r] = ids[rank]; ids[rank] = t;
            for (int o = 0; o < 16; o++) {
                if (o != rank && (rows[o] & mask) != 0) {
                    rows[o] ^= rows[rank];
                    ids[o] ^= ids[rank];
                }
            }
            PIVOT[rank] = mask;
            rank++;
        }
        if (rank != 16) throw new AssertionError("the identification's 16 bits are not independent in the ICRC");
        System.arraycopy(ids, 0, ROW_ID, 0, 16);
    }

    private static int crc(byte a, byte b) {
        CRC32 c = new CRC32();
        c.update(new byte[] {a, b});
        return (int) c.getValue();
    }
}
