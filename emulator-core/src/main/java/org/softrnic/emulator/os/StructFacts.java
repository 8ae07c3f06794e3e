package org.softrnic.emulator.os;

import java.util.ArrayList;
import java.util.List;

/**
 * Where a C library's structs keep the fields Java reads and writes through FFM: each offset, width and size
 * recorded once, where it is used, so that a test can compile a C program against the installed headers that checks
 * every one with offsetof and sizeof.
 */
public final class StructFacts {
    /** One checked fact: {@code offsetof(struct s, member)} and its width, or (member null) {@code sizeof}. */
    public record Fact(String struct, String member, long offset, long width) {
    }

    private final List<Fact> facts = new ArrayList<>();

    public List<Fact> facts() {
        return List.copyOf(facts);
    }

    /** {@code offset}, recorded as {@code struct}'s {@code member} of {@code width} bytes. */
    public long at(String struct, String member, long offset, long width) {
        facts.add(new Fact(struct, member, offset, width));
        return offset;
    }

    /** {@code size}, recorded as {@code sizeof(struct)}. */
    public long size(String struct, long size) {
        facts.add(new Fact(struct, null, 0, size));
        return size;
    }
}
