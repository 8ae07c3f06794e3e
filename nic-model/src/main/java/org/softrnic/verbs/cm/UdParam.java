package org.softrnic.verbs.cm;

import org.softrnic.verbs.AddressVector;

/**
 * struct rdma_ud_param: what RDMA_CM_EVENT_ESTABLISHED brings on an RDMA_PS_UDP id, once the peer's SIDR_REP
 * came: where the peer is ({@code ahAttr}, for {@link org.softrnic.verbs.ProtectionDomain#createAh}), its UD
 * QPN and the Q_Key its datagrams must carry.
 */
public record UdParam(AddressVector ahAttr, int qpNum, int qkey) {}
