package org.softrnic.nic.qp;

import java.lang.foreign.MemorySegment;
import java.util.EnumSet;
import java.util.Set;
import org.softrnic.nic.mem.MemoryRegion;
import org.softrnic.nic.mem.MemoryWindow;
import org.softrnic.verbs.AddressVector;
import org.softrnic.verbs.SendFlags;
import org.softrnic.verbs.SendOpcode;
import org.softrnic.verbs.SendWr;
import org.softrnic.verbs.WcStatus;

/**
 * A posted send work request as the engine keeps it: the fields of its {@link SendWr} that every request carries
 * (inline data copied too), the requester's and completer's progress through it, and, in a part made the first
 * time a slot needs it, the fields only UD sends, atomics, binds, fast registrations and flushes carry, with the
 * engine's objects their handles name (resolved when it is posted, as rxe resolves a bind's window by its rkey).
 * Preallocated in the send queue ring. A post writes the entry whole, so with thousands of QPs its size is lines
 * from memory a message: a WRITE's entry is one object of 144 bytes, not 304 in four.
 */
public final class SendWqe extends Wqe {
    /** Where a WQE stands (rxe's wqe_state). */
    public enum State { POSTED, PROCESSING, PENDING, DONE, ERROR }

    /** The opcodes whose fields lie in {@link #rare}; a UD QP's sends too (their address). */
    private static final Set<SendOpcode> RARE_OPCODES =
            EnumSet.of(SendOpcode.ATOMIC_CMP_AND_SWP, SendOpcode.ATOMIC_FETCH_AND_ADD, SendOpcode.BIND_MW, SendOpcode.REG_MR, SendOpcode.FLUSH);

    public SendOpcode opcode;
    /** IBV_SEND_* ({@link SendFlags}). */
    public int sendFlags;
    public int immData;
    public int invalidateRkey;
    public long remoteAddr;
    public int rkey;
    public long length;
    public final byte[] inline;
    /** The inline buffer of every WQE of a QP without inline data: one empty array, not one per WQE. */
    private static final byte[] NO_INLINE = {};
    public boolean isInline;

    public State state;
    /** PSN of the first and last packet of this message. */
    public int firstPsn;
    public int lastPsn;
    /** Bytes already put into packets by the requester. */
    public long sent;
    /** Bytes of a READ response already placed, by the completer. */
    public long received;
    public WcStatus status;
    /** The fields of the opcodes in {@link #RARE_OPCODES} and of UD sends; null until a post to the slot needs them. */
    public Rare rare;

    public SendWqe(int maxSge, int maxInline) {
        super(maxSge);
        inline = maxInline == 0 ? NO_INLINE : new byte[maxInline];
    }

    /**
     * Takes {@code wr}'s fields; {@code ud}: the QP is UD. Returns whether the request needs {@link #rare}, whose
     * handles' objects are then the poster's to resolve ({@link Rare#udAv}, {@link Rare#window},
     * {@link Rare#windowRegion}, {@link Rare#fastReg}).
     */
    public boolean copyFrom(SendWr wr, boolean ud) {
        wrId = wr.wrId;
        opcode = wr.opcode;
        sendFlags = wr.sendFlags;
        copySges(wr.sgList, wr.numSge);
        immData = wr.immData;
        invalidateRkey = wr.invalidateRkey;
        remoteAddr = wr.remoteAddr;
        rkey = wr.rkey;
        if (ud || RARE_OPCODES.contains(wr.opcode)) {
            if (rare == null) rare = new Rare();
            rare.copyFrom(wr);
            return true;
        }
        if (rare != null) rare.clear(); // the slot lets go of the last such request's objects
        return false;
    }

    public boolean signaled(boolean allSignaled) {
        return allSignaled || (sendFlags & SendFlags.SIGNALED) != 0;
    }

    /** What only UD sends, atomics, binds, fast registrations and flushes carry. */
    public static final class Rare {
        /** Atomics: compare (CMP_AND_SWP) or add (FETCH_AND_ADD), and swap. */
        public long compareAdd;
        public long swap;
        /** UD: the address vector of the request's address handle, the remote QPN and Q_Key. */
        public AddressVector udAv;
        public int remoteQpn;
        public int remoteQkey;
        /** BIND_MW: the window and the region the request names, and the binding. */
        public MemoryWindow window;
        public MemoryRegion windowRegion;
        public int bindRkey;
        public long bindAddr;
        public long bindLength;
        public int bindAccess;
        /** FLUSH: placement type, selectivity level, length. */
        public int flushType;
        public int flushLevel;
        public long flushLength;
        /** REG_MR: the fast-register region the request names, the memory it maps, address, access and key. */
        public MemoryRegion fastReg;
        public MemorySegment regSegment;
        public long regIova;
        public int regAccess;
        public int regKey;

        /** The request's values; the objects its handles name (udAv, window, windowRegion, fastReg) are the poster's to set. */
        void copyFrom(SendWr wr) {
            compareAdd = wr.compareAdd;
            swap = wr.swap;
            remoteQpn = wr.remoteQpn;
            remoteQkey = wr.remoteQkey;
            bindRkey = wr.bindRkey;
            bindAddr = wr.bindAddr;
            bindLength = wr.bindLength;
            bindAccess = wr.bindAccess;
            flushType = wr.flushType;
            flushLevel = wr.flushLevel;
            flushLength = wr.flushLength;
            regSegment = wr.opcode == SendOpcode.REG_MR ? wr.regSegment : null; // only a REG_MR holds on to its memory
            regIova = wr.regIova;
            regAccess = wr.regAccess;
            regKey = wr.regKey;
        }

        void clear() {
            udAv = null;
            window = null;
            windowRegion = null;
            fastReg = null;
            regSegment = null;
        }
    }
}
