package org.softrnic.nic;

/**
 * The port's word to the device's requesters: whether it takes another packet now. A port that serialises at its
 * line rate, or that a PFC pause stopped, shuts it, and calls {@link Nic#portReady} when it opens again; the
 * requesters wait meanwhile, as a NIC's transmit scheduler does, instead of piling packets up in front of it.
 */
@FunctionalInterface
public interface TxGate {
    boolean open();
}
