package org.softrnic.nic.cm;

import org.softrnic.verbs.Gid;
import org.softrnic.verbs.Mtu;

/**
 * What a REQ asks for (ib_cm_req_param with its primary path, as rdma_cm fills it for RoCE). The path's
 * GIDs are the active side's own (local) and the passive side's (remote).
 *
 * @param transport 0 RC, 1 UC (the REQ's Transport Service Type)
 * @param packetLifeTime the path's packet lifetime (CMA_IBOE_PACKET_LIFETIME)
 */
public record CmReq(long serviceId, int localQpn, int transport, int startingPsn, int responderResources,
                    int initiatorDepth, int retryCount, int rnrRetryCount, boolean srq, Mtu pathMtu, Gid localGid,
                    Gid remoteGid, int flowLabel, int trafficClass, int hopLimit, int packetLifeTime,
                    int remoteCmResponseTimeout, int localCmResponseTimeout, int maxCmRetries, byte[] privateData) {
    public CmReq {
        privateData = privateData == null ? new byte[0] : privateData.clone();
    }
}
