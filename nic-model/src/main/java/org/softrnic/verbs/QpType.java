package org.softrnic.verbs;

/** enum ibv_qp_type values for the transports softrnic implements. */
public enum QpType {
    RC(2), UC(3), UD(4);

    public final int value;

    QpType(int value) {
        this.value = value;
    }
}
