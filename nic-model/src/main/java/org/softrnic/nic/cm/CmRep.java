package org.softrnic.nic.cm;

/** What a REP answers (ib_cm_rep_param). {@code targetAckDelay} is the sending CA's local_ca_ack_delay. */
public record CmRep(int localQpn, int startingPsn, int responderResources, int initiatorDepth, int rnrRetryCount,
                    boolean srq, int targetAckDelay, byte[] privateData) {
    public CmRep {
        privateData = privateData == null ? new byte[0] : privateData.clone();
    }
}
