package org.softrnic.verbs;

/** struct ibv_sge, mutable and reusable. */
public final class Sge {
    public long addr;
    public int length;
    public int lkey;

    public Sge set(long addr, int length, int lkey) {
        this.addr = addr;
        this.length = length;
        this.lkey = lkey;
        return this;
    }

    public Sge copyFrom(Sge o) {
        return set(o.addr, o.length, o.lkey);
    }
}
