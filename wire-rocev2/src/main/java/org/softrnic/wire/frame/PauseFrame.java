package org.softrnic.wire.frame;

/**
 * An Ethernet MAC control frame that pauses a link (EtherType 0x8808, to 01:80:C2:00:00:01): IEEE 802.1Qbb's
 * priority flow control (opcode 0x0101, a class-enable vector, bit n for priority n, and eight pause times, priority 0
 * first) or 802.3x's PAUSE of the whole link (opcode 0x0001, one time). Times are in quanta of 512 bit times; 0 resumes.
 * Encoded as 60 bytes, zero-padded, without the FCS (64 on the wire).
 */
public record PauseFrame(int opcode, int classEnable, int[] quanta) {
    public static final int ETHERTYPE = 0x8808;
    public static final int OPCODE_PFC = 0x0101;
    public static final int OPCODE_PAUSE = 0x0001;
    /** The frame without its FCS: the 64-byte minimum less 4. */
    public static final int LENGTH = 60;
    private static final byte[] DESTINATION = {0x01, (byte) 0x80, (byte) 0xc2, 0, 0, 0x01};

    public PauseFrame {
        if (opcode != OPCODE_PFC && opcode != OPCODE_PAUSE) throw new IllegalArgumentException(String.format("MAC control opcode 0x%04x is not a pause", opcode));
        if ((classEnable & ~0xff) != 0) throw new IllegalArgumentException("the class-enable vector has 8 bits");
        quanta = quanta.clone();
        if (quanta.length != (opcode == OPCODE_PFC ? 8 : 1)) throw new IllegalArgumentException("a pause carries 8 times (PFC) or 1 (PAUSE)");
        for (int q : quanta) if (q < 0 || q > 0xffff) throw new IllegalArgumentException("a pause time is 0..65535 quanta");
    }

    /** PFC for one priority: XOFF with {@code quanta}, or XON with 0. */
    public static PauseFrame pfc(int priority, int quanta) {
        int[] q = new int[8];
        q[priority] = quanta;
        return new PauseFrame(OPCODE_PFC, 1 << priority, q);
    }

    public boolean enabled(int priority) {
        return opcode == OPCODE_PAUSE || (classEnable >>> priority & 1) != 0;
    }

    /** The whole frame from {@code sourceMac}: destination, source, EtherType, opcode, vector, times, padding. */
    public byte[] encode(byte[] sourceMac) {
        byte[] f = new byte[LENGTH];
        System.arraycopy(DESTINATION, 0, f, 0, 6);
        System.arraycopy(sourceMac, 0, f, 6, 6);
        put16(f, 12, ETHERTYPE);
        put16(f, 14, opcode);
        if (opcode == OPCODE_PAUSE) {
            put16(f, 16, quanta[0]);
            return f;
        }
        put16(f, 16, classEnable);
        for (int i = 0; i < 8; i++) put16(f, 18 + 2 * i, quanta[i]);
        return f;
    }

    /** The pause in a MAC control payload at {@code at} (just after the EtherType), or null when it is none or is cut short. */
    public static PauseFrame decode(byte[] d, int at) {
        if (d.length < at + 4) return null;
        int op = get16(d, at);
        if (op == OPCODE_PAUSE) return new PauseFrame(op, 0, new int[] {get16(d, at + 2)});
        if (op != OPCODE_PFC || d.length < at + 20) return null;
        int[] q = new int[8];
        for (int i = 0; i < 8; i++) q[i] = get16(d, at + 4 + 2 * i);
        return new PauseFrame(op, get16(d, at + 2) & 0xff, q);
    }

    @Override
    public int[] quanta() {
        return quanta.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PauseFrame p && p.opcode == opcode && p.classEnable == classEnable && java.util.Arrays.equals(p.quanta, quanta);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * opcode + classEnable) + java.util.Arrays.hashCode(quanta);
    }

    @Override
    public String toString() {
        return String.format("PauseFrame[opcode=0x%04x, classEnable=0x%02x, quanta=%s]", opcode, classEnable, java.util.Arrays.toString(quanta));
    }

    private static void put16(byte[] f, int at, int v) {
        f[at] = (byte) (v >>> 8);
        f[at + 1] = (byte) v;
    }

    private static int get16(byte[] d, int at) {
        return (d[at] & 0xff) << 8 | (d[at + 1] & 0xff);
    }
}
