package org.softrnic.emulator.fuzz;

/** One hostile packet: where it goes, whether its ICRC is made valid, and how it was made. */
record Mutant(int side, byte[] bytes, boolean restamp, Kind kind) {
    /** How the fuzzer made a packet, with how often (relative weight) it makes one. */
    enum Kind {
        BIT_FLIPS(16), TRUNCATED(8), LENGTH_FIELDS(8), PSN_EDGE(10), RKEY_NEAR(10), CONTENT(6), REPLAY(4),
        WRONG_DESTINATION(3), IP_HEADER(4), LAYOUT(10), QP1(3), CNP(3), CAPTURE(6), RANDOM_BYTES(3), REFLECTED(4);

        final int weight;

        Kind(int weight) {
            this.weight = weight;
        }
    }
}
