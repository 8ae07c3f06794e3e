package org.softrnic.emulator.soft;

import org.softrnic.nic.cm.CmAgent;
import org.softrnic.nic.cm.Cma;
import org.softrnic.nic.cm.CmaEvent;
import org.softrnic.verbs.cm.CmEvent;
import org.softrnic.verbs.cm.CmEventType;

/**
 * A soft RNIC's rdma_cm: its CM on QP1 and rdma_cm above it, made the first time an id uses the device, and
 * the model's events handed to the public ids' channels.
 */
final class SoftCm {
    final SoftRnic device;
    final Cma cma;

    /** On the device's thread. */
    SoftCm(SoftRnic device) {
        this.device = device;
        // the device's own seed and address: two hosts' comm IDs differ, as the kernel's random operands do
        long seed = device.nic.config().seed() ^ device.nic.gids().getFirst().lo() * 0x9e3779b97f4a7c15L;
        CmAgent agent = new CmAgent(device.nic, device.guid(), seed ^ 0xc3a5c85c97cb3127L);
        this.cma = new Cma(device.nic, agent, seed ^ 0x4cf5ad432745937fL, this::dispatch);
    }

    /** On the device's thread: a CONNECT_REQUEST makes the public id of the new connection, on the listener's channel. */
    private void dispatch(CmaEvent e) {
        SoftCmId listener = e.listener() == null ? null : (SoftCmId) e.listener().context;
        SoftCmId id;
        if (e.type() == CmEventType.CONNECT_REQUEST) {
            if (listener == null) return;
            id = new SoftCmId(listener.channel, listener.portSpace(), device, e.id(), listener.verbs());
            e.id().context = id;
        } else {
            id = (SoftCmId) e.id().context;
            if (id == null) return;
        }
        id.channel.deliver(new CmEvent(e.type(), id, listener, e.status(), e.privateData(), e.param(), e.ud()));
    }
}
