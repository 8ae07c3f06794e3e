package org.softrnic.verbs;


/**
 * struct ibv_qp. Posting copies the request, so the caller may change and post it again at once; posting
 * takes no lock and, once warm, allocates nothing.
 */
public interface QueuePair extends AutoCloseable {
    int qpn();

    QpType type();

    QpState state();

    /** ibv_modify_qp: {@code mask} holds IBV_QP_* bits ({@link org.softrnic.verbs.QpAttrMask}). */
    void modify(QpAttr attr, int mask);

    /**
     * Walks the QP from its state through INIT and RTR to RTS, each step with exactly the attribute mask the
     * IBTA table requires for its type, values from {@code attr} (for RC, {@link QpAttr#rcConnect} gives
     * perftest's). Not an rdma-core verb: the three ibv_modify_qp calls every connection makes.
     */
    default void modifyToRts(QpAttr attr) {
        for (QpState next : new QpState[] {QpState.INIT, QpState.RTR, QpState.RTS}) {
            var rule = org.softrnic.verbs.QpTransitions.rule(state(), next, type());
            if (rule == null) {
                throw new org.softrnic.verbs.VerbsException("ibv_modify_qp", org.softrnic.verbs.Errno.EINVAL,
                        "QP 0x" + Integer.toHexString(qpn()) + " cannot go from " + state().ibvName() + " to " + next.ibvName());
            }
            attr.qpState = next;
            modify(attr, org.softrnic.verbs.QpAttrMask.STATE | rule.required());
        }
    }

    /**
     * Connects this QP to {@code remote} in one call: RESET to RTS as {@link #modifyToRts} walks it, with the
     * attributes perftest uses ({@link QpAttr#rcConnect}), the smaller of the two ports' MTUs, this side
     * sending from {@code local}'s PSN and expecting the peer's. {@code local} is what this side sent the
     * peer ({@link Endpoint#of}).
     */
    default void connect(Endpoint local, Endpoint remote) {
        connect(local, remote, attr -> { });
    }

    /** {@link #connect(Endpoint, Endpoint)}, with {@code overrides} changing the attributes before the walk. */
    default void connect(Endpoint local, Endpoint remote, java.util.function.Consumer<QpAttr> overrides) {
        if (local.qpn() != qpn()) {
            throw new VerbsException("ibv_modify_qp", Errno.EINVAL, String.format("the local endpoint is QP 0x%x's, not 0x%x's", local.qpn(), qpn()));
        }
        Mtu mtu = local.mtu().bytes <= remote.mtu().bytes ? local.mtu() : remote.mtu();
        QpAttr attr = QpAttr.rcConnect(remote.gid(), remote.qpn(), mtu);
        attr.sqPsn = local.psn();
        attr.rqPsn = remote.psn();
        overrides.accept(attr);
        modifyToRts(attr);
    }

    /** ibv_query_qp: a copy of the attributes as last set. */
    QpAttr query();

    /** ibv_post_send. */
    void postSend(SendWr wr);

    /** ibv_post_recv. */
    void postRecv(RecvWr wr);

    /**
     * ibv_bind_mw for a type 1 window: binds {@code length} bytes of {@code mr} at {@code addr} with
     * {@code access}; completes on the send CQ as IBV_WC_BIND_MW.
     */
    void bindMw(MemoryWindow mw, long wrId, MemoryRegion mr, long addr, long length, int access);

    /** ibv_destroy_qp. */
    @Override
    void close();
}
