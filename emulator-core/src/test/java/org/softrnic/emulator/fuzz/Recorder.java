package org.softrnic.emulator.fuzz;

import org.softrnic.wire.PacketBuffer;

/** Hears every packet a device sends: the genuine traffic the fuzzer mutates. */
@FunctionalInterface
interface Recorder {
    void sent(int side, PacketBuffer buffer, int offset, int length);
}
