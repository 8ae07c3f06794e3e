package org.softrnic.cli.regcost;

import org.softrnic.cli.UserError;
import org.softrnic.emulator.config.ConfigException;
import org.softrnic.emulator.config.RegCostConfig;

/**
 * The commands' --reg-cost: CALL_NS,PAGE_NS for ibv_reg_mr (ibv_dereg_mr costing half), or, where four values are
 * taken, the deregistration's own two after them.
 */
public final class RegCostOption {
    private RegCostOption() {
    }

    public static RegCostConfig parse(String text, boolean deregToo) {
        String form = deregToo ? "CALL_NS,PAGE_NS[,DEREG_CALL_NS,DEREG_PAGE_NS]" : "CALL_NS,PAGE_NS";
        String[] p = text.split(",");
        try {
            if (p.length != 2 && !(deregToo && p.length == 4)) throw new NumberFormatException();
            long[] v = new long[p.length];
            for (int i = 0; i < p.length; i++) v[i] = Long.parseLong(p[i].trim());
            return p.length == 2 ? new RegCostConfig(v[0], v[1], v[0] / 2, v[1] / 2) : new RegCostConfig(v[0], v[1], v[2], v[3]);
        } catch (NumberFormatException e) {
            throw new UserError("--reg-cost takes " + form + ", whole nanoseconds, not " + text);
        } catch (ConfigException e) {
            throw new UserError("--reg-cost " + text + ": " + e.getMessage());
        }
    }
}
