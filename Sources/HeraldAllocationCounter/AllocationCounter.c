// Counts heap allocation calls for `herald bench pipeline`, preloaded:
//   LD_PRELOAD=.build/release/libHeraldAllocationCounter.so herald bench pipeline
//
// Why hand-written: glibc counts no allocation calls (mallinfo2 gives bytes in use; its
// malloc hooks are gone since 2.34), so calls are counted by interposing the allocation
// functions. ordo-one/malloc-interposer does that, but it prefixes every block with a
// header of its own, and in this process (librdkafka, SQLite, libcurl, the Swift runtime)
// a block allocated on one side and freed or reallocated on the other crashed the
// benchmark now and then ("double free or corruption", "unaligned tcache chunk" at thread
// exit). This counter changes no block: each function counts and forwards to glibc's own
// allocator (the exported __libc_* entry points), so free, malloc_usable_size and everything
// glibc does internally stay glibc's and need no interposing. Linux/glibc only.

#include "HeraldAllocationCounter.h"

#include <errno.h>
#include <stdatomic.h>
#include <stddef.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void *__libc_valloc(size_t size);
extern void *__libc_pvalloc(size_t size);

static _Atomic uint64_t allocations;

static inline void count(void) { atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed); }

uint64_t herald_allocation_count(void) { return atomic_load_explicit(&allocations, memory_order_relaxed); }

void *malloc(size_t size) {
    count();
    return __libc_malloc(size);
}

void *calloc(size_t count_, size_t size) {
    count();
    return __libc_calloc(count_, size);
}

void *realloc(void *pointer, size_t size) {
    count();
    return __libc_realloc(pointer, size);
}

void *memalign(size_t alignment, size_t size) {
    count();
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    count();
    return __libc_memalign(alignment, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    if (alignment == 0 || alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0) return EINVAL;
    count();
    void *pointer = __libc_memalign(alignment, size);
    if (pointer == NULL) return ENOMEM;
    *result = pointer;
    return 0;
}

void *valloc(size_t size) {
    count();
    return __libc_valloc(size);
}

void *pvalloc(size_t size) {
    count();
    return __libc_pvalloc(size);
}
