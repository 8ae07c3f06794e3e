package org.softrnic.wire.packet;

import java.lang.foreign.MemorySegment;
import org.softrnic.wire.HeaderKind;
import org.softrnic.wire.Opcode;
import org.softrnic.wire.header.Aeth;
import org.softrnic.wire.header.AtomicAckEth;
import org.softrnic.wire.header.AtomicEth;
import org.softrnic.wire.header.Bth;
import org.softrnic.wire.header.Deth;
import org.softrnic.wire.header.Feth;
import org.softrnic.wire.header.HeaderView;
import org.softrnic.wire.header.Ieth;
import org.softrnic.wire.header.ImmDt;
import org.softrnic.wire.header.Rdeth;
import org.softrnic.wire.header.Reth;

/**
 * One reusable view per transport header. A view is pointed at its header, at the offset the opcode table
 * gives, only when asked for, so a packet costs only the headers its handler reads.
 */
public class HeaderViews {
    private final Bth.View bth = new Bth.View();
    private final Rdeth.View rdeth = new Rdeth.View();
    private final Deth.View deth = new Deth.View();
    private final Feth.View feth = new Feth.View();
    private final Reth.View reth = new Reth.View();
    private final AtomicEth.View atomicEth = new AtomicEth.View();
    private final Aeth.View aeth = new Aeth.View();
    private final AtomicAckEth.View atomicAckEth = new AtomicAckEth.View();
    private final ImmDt.View immDt = new ImmDt.View();
    private final Ieth.View ieth = new Ieth.View();

    private MemorySegment segment;
    private long bthOffset;
    private Opcode opcode;

    /** Sets the packet whose headers the accessors show: its BTH at {@code offset}, laid out for {@code op}. */
    protected final void point(MemorySegment seg, long offset, Opcode op) {
        this.segment = seg;
        this.bthOffset = offset;
        this.opcode = op;
    }

    private <T extends HeaderView<T>> T at(T view, HeaderKind kind) {
        int off = opcode.offsetOf(kind);
        if (off < 0) throw new IllegalStateException(opcode + " carries no " + kind);
        return view.wrap(segment, bthOffset + off);
    }

    public final Bth.View bth() { return bth.wrap(segment, bthOffset); }
    public final Rdeth.View rdeth() { return at(rdeth, HeaderKind.RDETH); }
    public final Deth.View deth() { return at(deth, HeaderKind.DETH); }
    public final Feth.View feth() { return at(feth, HeaderKind.FETH); }
    public final Reth.View reth() { return at(reth, HeaderKind.RETH); }
    public final AtomicEth.View atomicEth() { return at(atomicEth, HeaderKind.ATOMIC_ETH); }
    public final Aeth.View aeth() { return at(aeth, HeaderKind.AETH); }
    public final AtomicAckEth.View atomicAckEth() { return at(atomicAckEth, HeaderKind.ATOMIC_ACK_ETH); }
    public final ImmDt.View immDt() { return at(immDt, HeaderKind.IMMDT); }
    public final Ieth.View ieth() { return at(ieth, HeaderKind.IETH); }
}
