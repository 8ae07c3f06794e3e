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

    static boolean matches(FrameView v, QpContext c) {
        if (v.ipVersion() == 4) {
            return c.ipv4Addresses && v.ipv4().srcInt() == c.peerIpv4 && v.ipv4().dstInt() == c.localIpv4;
        }
        Gid peer = c.peerGid;
        Gid local = c.localGid;
        var s = v.buffer().segment;
        int ip = v.ipOffset();
        return Be.u64(s, ip + 8) == peer.hi() && Be.u64(s, ip + 16) == peer.lo()
                && Be.u64(s, ip + 24) == local.hi() && Be.u64(s, ip + 32) == local.lo();
    }
}
