package org.softrnic.emulator.ibverbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
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
 * scripts/install-deps brings) that prints offsetof and sizeof for every fact in {@link IbvLayout}, and the
 * value of every rdma-core enum constant the provider passes through, and compares them with ours.
 */
class IbvLayoutTest {
    @TempDir
    Path dir;

    @Test
    void everyOffsetSizeAndEnumValueTheProviderUsesMatchesTheInstalledHeader() throws Exception {
        List<String> expected = new ArrayList<>();
        StringBuilder c = new StringBuilder("#include <stdio.h>\n#include <stddef.h>\n#include <infiniband/verbs.h>\n#include <rdma/rdma_cma.h>\n"
                + "#define M(s, m) sizeof(((struct s *) 0)->m)\nint main(void) {\n");
        for (IbvLayout.Fact f : IbvLayout.facts()) {
            if (f.member() == null) {
                String tag = f.struct().startsWith("union ") ? f.struct() : "struct " + f.struct();
                c.append("  printf(\"sizeof %s %zu\\n\", \"").append(f.struct()).append("\", sizeof(").append(tag).append("));\n");
                expected.add("sizeof " + f.struct() + " " + f.width());
            } else {
                c.append("  printf(\"%s.%s %zu %zu\\n\", \"").append(f.struct()).append("\", \"").append(f.member()).append("\", offsetof(struct ")
                        .append(f.struct()).append(", ").append(f.member()).append("), M(").append(f.struct()).append(", ").append(f.member()).append("));\n");
                expected.add(f.struct() + "." + f.member() + " " + f.offset() + " " + f.width());
            }
        }
        for (String[] k : constants()) {
            c.append("  printf(\"%s %ld\\n\", \"").append(k[0]).append("\", (long) ").append(k[0]).append(");\n");
            expected.add(k[0] + " " + k[1]);
        }
        c.append("  return 0;\n}\n");
        Path source = dir.resolve("layout.c");
        Files.writeString(source, c);
        Path binary = dir.resolve("layout");
        String compiled = run(List.of("gcc", "-o", binary.toString(), source.toString()));
        assertTrue(Files.exists(binary), "gcc failed (install gcc, libibverbs-dev and librdmacm-dev: scripts/install-deps):\n" + compiled);
        List<String> actual = run(List.of(binary.toString())).lines().toList();
        assertEquals(String.join("\n", expected), String.join("\n", actual));
        assertTrue(expected.size() > 150, "the check covers " + expected.size() + " facts");
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

    private static String run(List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "timed out: " + command);
        return out;
    }
}
