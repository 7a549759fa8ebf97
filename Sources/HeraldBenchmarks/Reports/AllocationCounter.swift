#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Counts the process's heap allocation calls through `libHeraldAllocationCounter.so` (target
/// HeraldAllocationCounter), when it is preloaded:
/// `LD_PRELOAD=.build/release/libHeraldAllocationCounter.so herald bench pipeline` (`make
/// bench` does so). glibc itself counts no allocation calls, so the preloaded library
/// interposes them for every library in the process (librdkafka, SQLite, Foundation, the
/// Swift runtime); see its source for why it is not ordo-one/malloc-interposer. It is found
/// with `dlsym` rather than linked, so `herald` itself never carries it: without the preload
/// the benchmark reports no allocation counts (JSON null) instead of wrong ones.
struct AllocationCounter: @unchecked Sendable {
    // @unchecked: the C function pointer is immutable and points at code; the counter it
    // reads is an atomic.
    private typealias Count = @convention(c) () -> UInt64
    private let count: Count

    /// The preloaded counter; nil when it is not loaded.
    static func preloaded() -> AllocationCounter? {
        // A nil handle is RTLD_DEFAULT: every object loaded into the process.
        guard let count = dlsym(nil, "herald_allocation_count") else { return nil }
        return AllocationCounter(count: unsafeBitCast(count, to: Count.self))
    }

    /// Allocation calls (malloc, calloc, realloc, aligned allocations) counted so far.
    func allocations() -> Int { Int(truncatingIfNeeded: count()) }
}
