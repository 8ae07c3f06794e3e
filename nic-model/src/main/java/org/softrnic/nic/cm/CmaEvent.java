package org.softrnic.nic.cm;

import org.softrnic.verbs.cm.CmEventType;
import org.softrnic.verbs.cm.ConnParam;
import org.softrnic.verbs.cm.UdParam;

/** An rdma_cm event of the model: the provider hands it on as the public CmEvent. */
public record CmaEvent(CmEventType type, CmaId id, CmaId listener, int status, byte[] privateData, ConnParam param, UdParam ud) {
    public CmaEvent(CmEventType type, CmaId id, CmaId listener, int status, byte[] privateData, ConnParam param) {
        this(type, id, listener, status, privateData, param, null);
    }
}
