package org.softrnic.nic;

/**
 * Each step a QP's responder or completer takes on a packet, by rxe's state names (rxe_resp.c's RESPST_*,
 * rxe_comp.c's COMPST_*): a test asserts a path ("CHK_PSN -> DUPLICATE_REQUEST"), softrnic demo --states
 * prints it beside the ladder. Called on the device's thread; none is set by default, and then it costs a
 * null check per step.
 */
@FunctionalInterface
public interface StateTrace {
    /** The engine's roles, as rxe's files are split. */
    enum Role { RESPONDER, COMPLETER }

    void step(int qpn, Role role, String state);
}
