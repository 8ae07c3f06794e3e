package org.softrnic.nic.mem;

/** Why a key check failed. Remote failures become a remote access error NAK; local ones LOC_PROT_ERR. */
public enum AccessError {
    INVALID_KEY, PD_MISMATCH, ACCESS_DENIED, OUT_OF_BOUNDS, MISALIGNED, INVALIDATED,
    /** The region is still registered, but the memory under it was freed (its arena closed). */
    MEMORY_FREED,
    /** An implicit ODP region's address with no memory behind it: the page fault finds nothing to map. */
    NO_MEMORY
}
