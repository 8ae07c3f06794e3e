/**
 * The verbs API: rdma-core's objects and calls in Java, the same for every provider (the soft RNIC, and
 * real devices through libibverbs). Plain data types (work completions, receive requests, SGEs, QP
 * attributes and masks, enums and flags) are the model's own rdma-core-named classes from
 * {@code org.softrnic.nic}; every object that a provider implements is an interface here.
 *
 * <p>Every resource is {@link java.lang.AutoCloseable}. Closing one that others still use fails with EBUSY
 * and names them, as rdma-core's destroy verbs do; closing twice, or using a closed one, fails with EINVAL.
 */
package org.softrnic.verbs;
