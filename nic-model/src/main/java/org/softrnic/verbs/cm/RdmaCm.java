package org.softrnic.verbs.cm;

import java.util.ServiceLoader;
import org.softrnic.verbs.Errno;
import org.softrnic.verbs.VerbsException;

/** rdma_cm's entry point: {@link #createEventChannel}, then ids on it. */
public final class RdmaCm {
    private RdmaCm() {
    }

    /** rdma_create_event_channel, on the first provider that offers rdma_cm. */
    public static EventChannel createEventChannel() {
        for (CmProvider p : ServiceLoader.load(CmProvider.class, RdmaCm.class.getClassLoader())) return p.createEventChannel();
        throw new VerbsException("rdma_create_event_channel", Errno.ENODEV, "no provider offers rdma_cm");
    }
}
