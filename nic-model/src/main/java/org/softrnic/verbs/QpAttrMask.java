package org.softrnic.verbs;

import java.util.ArrayList;
import java.util.List;

/** enum ibv_qp_attr_mask, with rdma-core's bit values. */
public final class QpAttrMask {
    public static final int STATE = 1;
    public static final int CUR_STATE = 1 << 1;
    public static final int EN_SQD_ASYNC_NOTIFY = 1 << 2;
    public static final int ACCESS_FLAGS = 1 << 3;
    public static final int PKEY_INDEX = 1 << 4;
    public static final int PORT = 1 << 5;
    public static final int QKEY = 1 << 6;
    public static final int AV = 1 << 7;
    public static final int PATH_MTU = 1 << 8;
    public static final int TIMEOUT = 1 << 9;
    public static final int RETRY_CNT = 1 << 10;
    public static final int RNR_RETRY = 1 << 11;
    public static final int RQ_PSN = 1 << 12;
    public static final int MAX_QP_RD_ATOMIC = 1 << 13;
    public static final int ALT_PATH = 1 << 14;
    public static final int MIN_RNR_TIMER = 1 << 15;
    public static final int SQ_PSN = 1 << 16;
    public static final int MAX_DEST_RD_ATOMIC = 1 << 17;
    public static final int PATH_MIG_STATE = 1 << 18;
    public static final int CAP = 1 << 19;
    public static final int DEST_QPN = 1 << 20;

    private static final String[] NAMES = {"STATE", "CUR_STATE", "EN_SQD_ASYNC_NOTIFY", "ACCESS_FLAGS", "PKEY_INDEX",
        "PORT", "QKEY", "AV", "PATH_MTU", "TIMEOUT", "RETRY_CNT", "RNR_RETRY", "RQ_PSN", "MAX_QP_RD_ATOMIC", "ALT_PATH",
        "MIN_RNR_TIMER", "SQ_PSN", "MAX_DEST_RD_ATOMIC", "PATH_MIG_STATE", "CAP", "DEST_QPN"};

    private QpAttrMask() {}

    /** "IBV_QP_AV | IBV_QP_PATH_MTU", for error messages. */
    public static String describe(int mask) {
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < NAMES.length; i++) if ((mask & 1 << i) != 0) parts.add("IBV_QP_" + NAMES[i]);
        if ((mask & ~((1 << NAMES.length) - 1)) != 0) parts.add(String.format("0x%x", mask & ~((1 << NAMES.length) - 1)));
        return parts.isEmpty() ? "none" : String.join(" | ", parts);
    }
}
