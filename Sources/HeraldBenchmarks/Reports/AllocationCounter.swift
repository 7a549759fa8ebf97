#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Counts the process's heap allocations through ordo-one/malloc-interposer, when its
/// library is preloaded: `LD_PRELOAD=.build/release/libMallocInterposerSwift.so herald bench
/// pipeline` (`make bench` does so). glibc itself counts no allocations — `mallinfo2` gives
/// bytes in use, not calls, and its malloc hooks are gone since 2.34 — so calls are counted
/// by interposing `malloc` and friends, which a preloaded library does for every library in
/// the process (librdkafka, SQLite, Foundation, the Swift runtime). The interposer is found
/// with `dlsym` rather than linked, so `herald` itself never carries it: without the
/// preload the benchmark reports no allocation counts (JSON null) instead of wrong ones.
struct AllocationCounter: @unchecked Sendable {
    // @unchecked: the two C function pointers are immutable and point at code; the
    // interposer's counters are per-thread blocks it sums under its own mutex.
    private typealias Statistics = @convention(c) (
        UnsafeMutablePointer<Int64>?, UnsafeMutablePointer<Int64>?, UnsafeMutablePointer<Int64>?,
        UnsafeMutablePointer<Int64>?, UnsafeMutablePointer<Int64>?, UnsafeMutablePointer<Int64>?
    ) -> Void
    private let statistics: Statistics

    /// The preloaded interposer, counting from now on; nil when it is not loaded.
    static func preloaded() -> AllocationCounter? {
        // A nil handle is RTLD_DEFAULT: every object loaded into the process.
        guard let enable = dlsym(nil, "malloc_interposer_enable"),
              let statistics = dlsym(nil, "malloc_interposer_get_stats")
        else { return nil }
        unsafeBitCast(enable, to: (@convention(c) () -> Void).self)()
        return AllocationCounter(statistics: unsafeBitCast(statistics, to: Statistics.self))
    }

    /// Allocation calls (malloc, calloc, realloc, aligned allocations) counted so far.
    func allocations() -> Int {
        var (count, bytes, small, large, frees, freed) = (Int64(0), Int64(0), Int64(0), Int64(0), Int64(0), Int64(0))
        statistics(&count, &bytes, &small, &large, &frees, &freed)
        return Int(count)
    }
}
