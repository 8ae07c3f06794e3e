package org.softrnic.nic.cm;

import org.softrnic.verbs.cm.CmEventType;
import org.softrnic.verbs.cm.ConnParam;

/** An rdma_cm event of the model: the provider hands it on as the public CmEvent. */
public record CmaEvent(CmEventType type, CmaId id, CmaId listener, int status, byte[] privateData, ConnParam param) {}
