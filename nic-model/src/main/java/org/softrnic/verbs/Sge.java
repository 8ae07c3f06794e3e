package org.softrnic.verbs;

/** struct ibv_sge, mutable and reusable. */
public final class Sge {
    /** The buffer's virtual address, inside the region of {@link #lkey}. */
    public long addr;
    /** The buffer's length, in bytes. */
    public int length;
    /** The local key of the region that holds the buffer. */
    public int lkey;

    /**
     * Sets all three fields.
     *
     * @param addr   the buffer's virtual address
     * @param length its length in bytes
     * @param lkey   the local key of the region that holds it
     * @return this entry
     */
    public Sge set(long addr, int length, int lkey) {
        this.addr = addr;
        this.length = length;
        this.lkey = lkey;
        return this;
    }

    /** Copies {@code o}'s three fields; returns this. */
    public Sge copyFrom(Sge o) {
        return set(o.addr, o.length, o.lkey);
    }
}
