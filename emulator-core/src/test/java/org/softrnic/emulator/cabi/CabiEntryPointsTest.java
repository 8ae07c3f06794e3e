package org.softrnic.emulator.cabi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every entry point softrnic's libibverbs serves from Java has its symbol's machine types: a method that drifted from
 * symbols.list would leave its slot empty, and the C program would meet EOPNOTSUPP where a device was promised. (The
 * structs it fills are checked with the ibverbs provider's, in IbvLayoutTest.)
 */
class CabiEntryPointsTest {
    @Test
    void everyJavaEntryPointHasItsSymbolsTypes() throws Exception {
        List<Cabi.Symbol> symbols = Cabi.symbols();
        assertTrue(symbols.size() >= 140, "rdma-core 44's public functions: " + symbols.size());
        int served = 0;
        for (Cabi.Symbol s : symbols) if (Cabi.implementation(s) != null) served++;
        // each static method of the implementations named like a symbol must be the one an upcall reaches
        for (Class<?> c : Cabi.IMPLEMENTATIONS) {
            for (var m : c.getDeclaredMethods()) {
                var s = symbols.stream().filter(x -> x.name().equals(m.getName())).findFirst();
                if (s.isEmpty()) continue;
                assertNotNull(Cabi.implementation(s.get()), m + " does not have " + s.get() + "'s machine types");
            }
        }
        assertEquals(served, symbols.stream().filter(s -> Cabi.implementation(s) != null).count());
        assertTrue(served >= 14, "the device verbs are served: " + served);
    }
}
