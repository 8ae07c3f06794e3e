package org.softrnic.cli.check;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.softrnic.verbs.Access;
import org.softrnic.verbs.AddressVector;
import org.softrnic.verbs.CompletionQueue;
import org.softrnic.verbs.Gid;
import org.softrnic.verbs.MemoryRegion;
import org.softrnic.verbs.Mtu;
import org.softrnic.verbs.ProtectionDomain;
import org.softrnic.verbs.QpAttr;
import org.softrnic.verbs.QpCaps;
import org.softrnic.verbs.QpInitAttr;
import org.softrnic.verbs.QpType;
import org.softrnic.verbs.QueuePair;
import org.softrnic.verbs.RdmaContext;
import org.softrnic.verbs.SharedReceiveQueue;

/**
 * One side of a contract run: an open context with a PD, a CQ and one registered 1 MiB native buffer, and
 * the GID its QPs send from. Scenarios make their QPs here and close them; the endpoint closes the rest.
 */
final class Endpoint implements AutoCloseable {
    static final int SIZE = 1 << 20;
    static final int ALL_ACCESS = Access.LOCAL_WRITE | Access.REMOTE_ANY;

    final RdmaContext ctx;
    final int gidIndex;
    final Gid gid;
    /** The UDP port peers address this endpoint's device on (0: the RoCE port, 4791). */
    final int udpPort;
    final ProtectionDomain pd;
    final CompletionQueue cq;
    final MemoryRegion mr;
    final MemorySegment mem;
    private final Arena arena = Arena.ofShared();

    Endpoint(RdmaContext ctx, int gidIndex, int udpPort) {
        this.ctx = ctx;
        this.gidIndex = gidIndex;
        this.gid = ctx.queryGid(1, gidIndex);
        this.udpPort = udpPort;
        this.pd = ctx.allocPd();
        this.cq = ctx.createCq(1024);
        this.mem = arena.allocate(SIZE, 4096);
        this.mr = pd.regMr(mem, ALL_ACCESS);
    }

    QueuePair qp(QpType type, CompletionQueue on, SharedReceiveQueue srq) {
        return pd.createQp(new QpInitAttr(type, on, on, srq, new QpCaps(64, srq == null ? 64 : 0, 2, 2, 64), false));
    }

    /** Moves {@code qp} to RTS towards {@code peerQpn} on {@code peer}, with perftest's RC attributes. */
    void connect(QueuePair qp, Endpoint peer, int peerQpn, int rnrRetry) {
        QpAttr attr = QpAttr.rcConnect(peer.gid, peerQpn, Mtu.MTU_1024);
        attr.ahAttr = towards(peer);
        attr.rnrRetry = rnrRetry;
        qp.modifyToRts(attr);
    }

    /** An address vector from this endpoint's GID to {@code peer}'s. */
    AddressVector towards(Endpoint peer) {
        return new AddressVector(peer.gid, gidIndex, 0, 64, 0, peer.udpPort);
    }

    @Override
    public void close() {
        mr.close();
        cq.close();
        pd.close();
        arena.close();
    }
}
