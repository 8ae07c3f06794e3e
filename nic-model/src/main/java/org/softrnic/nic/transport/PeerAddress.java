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

    static boolean matches(FrameView v, Gid peer, Gid local) {
        if (v.ipVersion() == 4) {
            return peer.isIpv4Mapped() && local.isIpv4Mapped()
                    && v.ipv4().srcInt() == (int) peer.lo() && v.ipv4().dstInt() == (int) local.lo();
        }
        var s = v.buffer().segment;
        int ip = v.ipOffset();
        return Be.u64(s, ip + 8) == peer.hi() && Be.u64(s, ip + 16) == peer.lo()
                && Be.u64(s, ip + 24) == local.hi() && Be.u64(s, ip + 32) == local.lo();
    }
}
