package org.softrnic.verbs;


/** struct ibv_ah: where a UD send goes. */
public interface AddressHandle extends AutoCloseable {
    AddressVector attr();

    /** ibv_destroy_ah. */
    @Override
    void close();
}
