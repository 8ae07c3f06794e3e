/* What the generated entry points of softrnic's libibverbs.so.1 and librdmacm.so.1 share with the bootstrap. */
#ifndef SOFTRNIC_CABI_H
#define SOFTRNIC_CABI_H
#include <stdint.h>
#include "slots.h" /* generated: CABI_SLOTS, one slot per line of symbols.list */

void **softrnic_cabi_table(void);
void softrnic_cabi_missing(const char *name);
#endif
