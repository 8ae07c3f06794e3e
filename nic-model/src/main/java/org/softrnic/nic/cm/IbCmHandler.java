package org.softrnic.nic.cm;

import java.lang.foreign.MemorySegment;

/** The consumer of a CM id (rdma_cm, or a test): told each event, with the MAD that caused it (null for a timer's). */
@FunctionalInterface
public interface IbCmHandler {
    /**
     * @param id       the id the event is for (for REQ_RECEIVED, the new id the listener's REQ made)
     * @param listener for REQ_RECEIVED the listening id, else null
     * @param mad      the received MAD, valid during the call only; null when a timer caused the event
     */
    void event(IbCmId id, IbCmId listener, IbCmEvent event, MemorySegment mad);
}
