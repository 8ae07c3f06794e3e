package org.softrnic.verbs.cm;

import java.util.ServiceLoader;
import org.softrnic.verbs.Errno;
import org.softrnic.verbs.VerbsException;

/** rdma_cm's entry point: {@link #createEventChannel}, then ids on it. */
public final class RdmaCm {
    private RdmaCm() {
    }

    /**
     * rdma_create_event_channel, on the provider the system property {@code softrnic.provider} names ({@code soft},
     * {@code ibverbs}), or else the first that offers rdma_cm (the soft RNIC's).
     */
    public static EventChannel createEventChannel() {
        return createEventChannel(System.getProperty("softrnic.provider"));
    }

    /** rdma_create_event_channel on the provider called {@code provider} (null: the first); ENODEV when none is. */
    public static EventChannel createEventChannel(String provider) {
        for (CmProvider p : ServiceLoader.load(CmProvider.class, RdmaCm.class.getClassLoader())) {
            if (provider == null || provider.equals(p.name())) return p.createEventChannel();
        }
        throw new VerbsException("rdma_create_event_channel", Errno.ENODEV,
                provider == null ? "no provider offers rdma_cm" : "no provider called " + provider + " offers rdma_cm");
    }
}
