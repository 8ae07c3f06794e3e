package org.softrnic.nic.cm;

/**
 * One row of the CM's state table: in {@code from}, {@code input} sends {@code wire} (null: nothing) and moves
 * the id to {@code to}; {@code why} says where the kernel does it.
 */
public record CmTransition(CmState from, CmInput input, String wire, CmState to, String why) {}
