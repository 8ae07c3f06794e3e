package org.softrnic.nic.transport;

import org.softrnic.verbs.QpType;
import org.softrnic.wire.OpClass;
import org.softrnic.wire.Opcode;
import org.softrnic.wire.Position;
import org.softrnic.wire.Transport;

/** Picks the BTH opcode for a request packet by asking wire-rocev2's opcode table, never a list of its own. */
final class Opcodes {
    private Opcodes() {}

    static Transport transport(QpType type) {
        return switch (type) {
            case RC -> Transport.RC;
            case UC -> Transport.UC;
            case UD -> Transport.UD;
        };
    }

    /** The opcode of this transport and class at this place in the message, with or without ImmDt / IETH. */
    static Opcode pick(Transport t, OpClass c, Position p, boolean imm, boolean inv) {
        for (Opcode op : Opcode.values()) {
            if (op.transport() == t && op.opClass == c && op.position == p && op.hasImmediate() == imm
                    && op.hasInvalidate() == inv) {
                return op;
            }
        }
        throw new IllegalArgumentException("no " + t + " " + c + " " + p + (imm ? " with immediate" : "")
                + (inv ? " with invalidate" : "") + " opcode");
    }

    private static final int TRANSPORTS = Transport.values().length;
    private static final int CLASSES = OpClass.values().length;
    private static final int POSITIONS = Position.values().length;
    private static final Opcode[][] CACHE = new Opcode[TRANSPORTS * CLASSES * POSITIONS * 4][];

    /** {@link #pick} memoised, so the packet path does not search. */
    static Opcode cached(Transport t, OpClass c, Position p, boolean imm, boolean inv) {
        int i = ((t.ordinal() * CLASSES + c.ordinal()) * POSITIONS + p.ordinal()) * 4
                + (imm ? 2 : 0) + (inv ? 1 : 0);
        Opcode[] slot = CACHE[i];
        if (slot == null) {
            slot = new Opcode[] {pick(t, c, p, imm, inv)};
            CACHE[i] = slot;
        }
        return slot[0];
    }

    static Position position(boolean first, boolean last) {
        return first ? (last ? Position.ONLY : Position.FIRST) : (last ? Position.LAST : Position.MIDDLE);
    }
}
