package org.softrnic.verbs.cm;

/**
 * struct rdma_cm_event: its type, the id it is for (for CONNECT_REQUEST a new id, with the listening one in
 * {@code listenId}), its status (a REJ's reason for REJECTED, -ETIMEDOUT for UNREACHABLE, else 0), and the
 * private data and parameters it brings: {@code param} for a connection (param.conn), {@code ud} for
 * RDMA_PS_UDP's ESTABLISHED (param.ud; null otherwise). No rdma_ack_cm_event: an event is a value.
 */
public record CmEvent(CmEventType type, CmId id, CmId listenId, int status, byte[] privateData, ConnParam param, UdParam ud) {
    public CmEvent {
        privateData = privateData == null ? new byte[0] : privateData.clone();
    }

    public CmEvent(CmEventType type, CmId id, CmId listenId, int status, byte[] privateData, ConnParam param) {
        this(type, id, listenId, status, privateData, param, null);
    }

    @Override
    public byte[] privateData() {
        return privateData.clone();
    }

    @Override
    public String toString() {
        return type + (status != 0 ? ", status " + status : "");
    }
}
