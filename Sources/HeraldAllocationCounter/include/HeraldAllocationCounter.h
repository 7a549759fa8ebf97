#ifndef HERALD_ALLOCATION_COUNTER_H
#define HERALD_ALLOCATION_COUNTER_H

#include <stdint.h>

/// Allocation calls (malloc, calloc, realloc, the aligned allocations) made in this process
/// since libHeraldAllocationCounter.so was preloaded. `herald bench pipeline` finds it with
/// dlsym; nothing links it.
uint64_t herald_allocation_count(void);

#endif
