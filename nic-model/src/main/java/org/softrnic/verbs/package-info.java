/**
 * The verbs API: rdma-core's objects and calls in Java, the same for every provider (the soft RNIC, and
 * real devices through libibverbs). Everything a user touches is here: the interfaces every provider
 * implements, and the plain data types with rdma-core's names (work requests and completions, SGEs, QP
 * attributes and masks, enums and flags). The package depends on nothing but the JDK; it lives in nic-model
 * so that the engine speaks the same types (a request is posted without being copied into a second class),
 * and a user imports nothing else.
 *
 * <p>Every resource is {@link java.lang.AutoCloseable}. Closing one that others still use fails with EBUSY
 * and names them, as rdma-core's destroy verbs do; closing twice, or using a closed one, fails with EINVAL.
 */
package org.softrnic.verbs;
