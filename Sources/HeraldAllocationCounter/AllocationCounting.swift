import MallocInterposerSwift

/// What `libMallocInterposerSwift.so` — ordo-one/malloc-interposer, built beside this
/// library — counts, for code that links it. `herald` does not: it finds the preloaded
/// interposer at run time (`AllocationCounter` in HeraldBenchmarks), so a production binary
/// never carries an allocator that prefixes every block. This library exists so that
/// `swift build --product HeraldAllocationCounter` builds the interposer to preload.
public enum AllocationCounting {
    /// Allocation calls counted so far (counting is on only after `MallocInterposerSwift.hook()`).
    public static var allocations: Int { MallocInterposerSwift.getStatistics().mallocCount }
}
