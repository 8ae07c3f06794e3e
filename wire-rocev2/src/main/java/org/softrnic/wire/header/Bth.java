package org.softrnic.wire.header;

import static org.softrnic.wire.Be.u16;
import static org.softrnic.wire.Be.u24;
import static org.softrnic.wire.Be.u8;

import java.lang.foreign.MemorySegment;
import org.softrnic.wire.Opcode;

/**
 * Base Transport Header (IBTA 9.2), 12 bytes.
 * <pre>
 * 0: OpCode | 1: SE M PadCnt(2) TVer(4) | 2-3: P_Key
 * 4: FECN BECN resv6 | 5-7: DestQP
 * 8: AckReq resv7 | 9-11: PSN
 * </pre>
 */
public record Bth(Opcode opcode, boolean se, boolean migReq, int pad, int tver, int pkey,
                  boolean fecn, boolean becn, int dqpn, boolean ackReq, int psn) {
    public static final int LENGTH = 12;
    static final int OPCODE = 0, FLAGS = 1, PKEY = 2, FECN_BECN = 4, DQPN = 5, ACKREQ = 8, PSN = 9;
    /** Byte of the BTH that the ICRC masks to all ones: FECN, BECN and resv6a (rxe_icrc.c). */
    public static final int ICRC_MASKED_BYTE = FECN_BECN;
    public static final int PSN_MASK = 0xffffff;
    public static final int QPN_MASK = 0xffffff;
    /** The default P_Key every rxe QP uses. */
    public static final int DEFAULT_PKEY = 0xffff;

    public Bth {
        if (opcode == null) throw new IllegalArgumentException("opcode is required");
        if ((pad & ~3) != 0) throw new IllegalArgumentException("pad count " + pad + " not in 0..3");
        if ((tver & ~0xf) != 0) throw new IllegalArgumentException("tver " + tver + " not in 0..15");
        if ((pkey & ~0xffff) != 0) throw new IllegalArgumentException("pkey " + pkey + " not 16-bit");
        if ((dqpn & ~QPN_MASK) != 0) throw new IllegalArgumentException("dest QPN " + dqpn + " not 24-bit");
        if ((psn & ~PSN_MASK) != 0) throw new IllegalArgumentException("PSN " + psn + " not 24-bit");
    }

    public static Bth read(View v) {
        return new Bth(Opcode.of(v.opcodeValue()), v.se(), v.migReq(), v.pad(), v.tver(), v.pkey(),
                v.fecn(), v.becn(), v.dqpn(), v.ackReq(), v.psn());
    }

    public void write(View v) {
        v.opcodeValue(opcode.value).flags(se, migReq, pad, tver).pkey(pkey).ecn(fecn, becn).dqpn(dqpn)
                .ackReq(ackReq).psn(psn);
    }

    /** Zero-copy view of a BTH. */
    public static final class View extends HeaderView<View> {
        public int opcodeValue() { return u8(seg, off + OPCODE); }
        public boolean se() { return (u8(seg, off + FLAGS) & 0x80) != 0; }
        public boolean migReq() { return (u8(seg, off + FLAGS) & 0x40) != 0; }
        public int pad() { return (u8(seg, off + FLAGS) >>> 4) & 3; }
        public int tver() { return u8(seg, off + FLAGS) & 0xf; }
        public int pkey() { return u16(seg, off + PKEY); }
        public boolean fecn() { return (u8(seg, off + FECN_BECN) & 0x80) != 0; }
        public boolean becn() { return (u8(seg, off + FECN_BECN) & 0x40) != 0; }
        public int dqpn() { return u24(seg, off + DQPN); }
        public boolean ackReq() { return (u8(seg, off + ACKREQ) & 0x80) != 0; }
        public int psn() { return u24(seg, off + PSN); }

        public View opcodeValue(int v) { u8(seg, off + OPCODE, v); return this; }
        public View flags(boolean se, boolean m, int pad, int tver) {
            u8(seg, off + FLAGS, (se ? 0x80 : 0) | (m ? 0x40 : 0) | (pad & 3) << 4 | (tver & 0xf));
            return this;
        }
        public View pad(int v) { u8(seg, off + FLAGS, u8(seg, off + FLAGS) & 0xcf | (v & 3) << 4); return this; }
        public View pkey(int v) { u16(seg, off + PKEY, v); return this; }
        public View ecn(boolean fecn, boolean becn) {
            u8(seg, off + FECN_BECN, (fecn ? 0x80 : 0) | (becn ? 0x40 : 0));
            return this;
        }
        public View dqpn(int v) { u24(seg, off + DQPN, v); return this; }
        public View ackReq(boolean a) { u8(seg, off + ACKREQ, a ? 0x80 : 0); return this; }
        public View psn(int v) { u24(seg, off + PSN, v); return this; }
    }
}
