package org.softrnic.verbs.cm;

/** What a provider of RDMA devices offers rdma_cm through (found by java.util.ServiceLoader). */
public interface CmProvider {
    String name();

    EventChannel createEventChannel();
}
