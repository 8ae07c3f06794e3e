package org.softrnic.nic.sim;

/**
 * An event of the virtual-time fabric: a packet due at a device ({@code to} ≥ 0), or, on a switched fabric, a packet
 * reaching a switch, a port done serialising, a pause frame or its end ({@code to} < 0, {@link #kind}). Its array and
 * the object itself are reused once it is done, unless the array is also the trace's or a drop rule's ({@code pooled}
 * false).
 */
final class Flight implements Comparable<Flight> {
    static final byte DELIVER = 0;
    static final byte ARRIVE = 1;
    static final byte PORT_FREE = 2;
    static final byte PAUSE = 3;
    static final byte RESUME = 4;
    static final byte PFC_REFRESH = 5;

    long at;
    long seq;
    int to;
    byte[] bytes;
    int length;
    boolean pooled;
    /** On a switched fabric: what happens at {@link #at}, where, and the packet's facts on its way. */
    byte kind;
    int port;
    int ingress;
    int prio;
    int wire;
    int from;
    long sentAt;
    /** A PFC event's priority, and its value: a pause's quanta, a refresh's epoch, a resume's end of the pause. */
    int priority;
    long stamp;

    @Override
    public int compareTo(Flight o) {
        return at != o.at ? Long.compare(at, o.at) : Long.compare(seq, o.seq);
    }
}
