package org.softrnic.verbs;


/** Choosing a source GID, as the tools' users do by hand with -g/-x. */
public final class Gids {
    private Gids() {
    }

    /**
     * The first IPv4-mapped GID of port 1 (RoCEv2 over IPv4, what rxe users pick with -g 1), else index 0. On
     * the soft RNIC index 0 is its address already; on rxe index 0 is the IPv6 link-local GID.
     */
    public static int ipv4OrFirst(RdmaContext ctx) {
        int n = ctx.queryPort(1).gidTblLen();
        for (int i = 0; i < n; i++) {
            try {
                if (ctx.queryGid(1, i).isIpv4Mapped()) return i;
            } catch (VerbsException empty) {
                // an empty slot
            }
        }
        return 0;
    }
}
