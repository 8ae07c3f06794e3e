package org.softrnic.nic.transport;

import org.softrnic.verbs.Gid;
import org.softrnic.wire.Be;
import org.softrnic.wire.frame.FrameView;

/**
 * rxe's check_addr for RC and UC: a packet's IP source must be the QP's destination GID and its IP
 * destination the local GID the QP sends from, so that nobody but the connected peer reaches the QP.
 */
final class PeerAddress {
    private PeerAddress() {}

    /** An IPv4 packet, against the addresses in the QP's record. */
    static boolean matchesIpv4(FrameView v, RespLine r) {
        return r.ipv4Addresses() && v.ipv4().srcInt() == r.peerIpv4() && v.ipv4().dstInt() == r.localIpv4();
    }

    /** An IPv6 packet, against the QP's GIDs. */
    static boolean matchesIpv6(FrameView v, QpContext c) {
        Gid peer = c.peerGid;
        Gid local = c.localGid;
        var s = v.buffer().segment;
        int ip = v.ipOffset();
        return Be.u64(s, ip + 8) == peer.hi() && Be.u64(s, ip + 16) == peer.lo()
                && Be.u64(s, ip + 24) == local.hi() && Be.u64(s, ip + 32) == local.lo();
    }
}
