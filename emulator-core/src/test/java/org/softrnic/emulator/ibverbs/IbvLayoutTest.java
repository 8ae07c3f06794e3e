package org.softrnic.emulator.ibverbs;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.softrnic.verbs.AsyncEvent;
import org.softrnic.verbs.Mtu;
import org.softrnic.verbs.QpAttrMask;
import org.softrnic.verbs.QpState;
import org.softrnic.verbs.QpType;
import org.softrnic.verbs.SendOpcode;
import org.softrnic.verbs.WcOpcode;
import org.softrnic.verbs.WcStatus;

/**
 * Compiles a C program against the installed infiniband/verbs.h (gcc and libibverbs-dev, which
 * scripts/install-deps brings) that prints offsetof and sizeof for every fact in {@link org.softrnic.emulator.rdmacore.RdmaCoreLayout}, and the
 * value of every rdma-core enum constant the provider passes through, and compares them with ours.
 */
class IbvLayoutTest {
    @TempDir
    Path dir;

    @Test
    void everyOffsetSizeAndEnumValueTheProviderUsesMatchesTheInstalledHeader() throws Exception {
        org.softrnic.emulator.os.StructFactsCheck.check(dir, List.of("infiniband/verbs.h", "rdma/rdma_cma.h"), org.softrnic.emulator.rdmacore.RdmaCoreLayout.facts(), constants());
        assertTrue(org.softrnic.emulator.rdmacore.RdmaCoreLayout.facts().size() + constants().size() > 150, "the check covers every fact");
    }

    /** The rdma-core names of the model's enum values that cross into the library, with our values. */
    private static List<String[]> constants() {
        List<String[]> k = new ArrayList<>();
        for (WcStatus s : WcStatus.values()) k.add(new String[] {"IBV_WC_" + s.name(), String.valueOf(s.value)});
        for (WcOpcode o : WcOpcode.values()) {
            if (o != WcOpcode.REG_MR && o != WcOpcode.FLUSH) k.add(new String[] {"IBV_WC_" + o.name(), String.valueOf(o.value)});
        }
        for (SendOpcode o : SendOpcode.values()) {
            if (o != SendOpcode.REG_MR && o != SendOpcode.FLUSH) k.add(new String[] {"IBV_WR_" + o.name(), String.valueOf(o.value)});
        }
        for (QpState s : QpState.values()) k.add(new String[] {"IBV_QPS_" + s.name(), String.valueOf(s.ordinal())});
        for (QpType t : QpType.values()) k.add(new String[] {"IBV_QPT_" + t.name(), String.valueOf(t.value)});
        for (Mtu m : Mtu.values()) k.add(new String[] {"IBV_" + m.name(), String.valueOf(m.value)});
        for (AsyncEvent.Type t : AsyncEvent.Type.values()) k.add(new String[] {"IBV_EVENT_" + t.name(), String.valueOf(t.ordinal())});
        for (var f : QpAttrMask.class.getFields()) {
            if (f.getType() == int.class && f.getName().equals(f.getName().toUpperCase())) {
                try {
                    k.add(new String[] {"IBV_QP_" + f.getName(), String.valueOf(f.getInt(null))});
                } catch (IllegalAccessException e) {
                    throw new AssertionError(e);
                }
            }
        }
        for (org.softrnic.verbs.cm.PortSpace ps : org.softrnic.verbs.cm.PortSpace.values()) k.add(new String[] {ps.cmName(), String.valueOf(ps.value)});
        for (org.softrnic.verbs.cm.CmEventType t : org.softrnic.verbs.cm.CmEventType.values()) k.add(new String[] {t.toString(), String.valueOf(t.ordinal())});
        k.add(new String[] {"RDMA_OPTION_ID", String.valueOf(RdmaCmLib.OPTION_ID)});
        k.add(new String[] {"RDMA_OPTION_ID_TOS", String.valueOf(RdmaCmLib.OPTION_ID_TOS)});
        k.add(new String[] {"RDMA_OPTION_ID_ACK_TIMEOUT", String.valueOf(RdmaCmLib.OPTION_ID_ACK_TIMEOUT)});
        return k;
    }
}
