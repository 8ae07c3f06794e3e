package org.softrnic.verbs;


/**
 * struct ibv_port_attr, the fields a RoCE user reads.
 *
 * @param state     "ACTIVE" (IBV_PORT_ACTIVE) or "DOWN"
 * @param linkLayer "Ethernet" for RoCE, as ibv_devinfo prints it
 */
public record PortAttr(String state, Mtu maxMtu, Mtu activeMtu, int gidTblLen, int pkeyTblLen, String linkLayer) {
}
