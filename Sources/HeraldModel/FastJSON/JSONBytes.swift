/// The memory a ``JSONWriter`` writes into: one allocation, freed with the last writer that
/// shares it.
///
/// Hand-written rather than an `[UInt8]` because `Array.append` checks uniqueness and
/// capacity and goes through its generic copy machinery on every append (8% of composing and
/// encoding a typical notification in perf); the writer checks once per value and then
/// copies with `memcpy` or stores single bytes. The pointer never changes: a writer that needs
/// more room copies into a new `JSONBytes`.
final class JSONBytes: @unchecked Sendable {
    // @unchecked: the memory is only written by a writer holding the only reference
    // (`JSONWriter` checks `isKnownUniquelyReferenced` before every write).

    /// The start of the allocation.
    let base: UnsafeMutablePointer<UInt8>
    /// The allocation's size in bytes.
    let capacity: Int

    /// Allocates `capacity` bytes (at least 16), copying the first `count` bytes of `source`.
    init(capacity: Int, copying source: UnsafePointer<UInt8>? = nil, count: Int = 0) {
        self.capacity = Swift.max(capacity, 16)
        base = UnsafeMutablePointer<UInt8>.allocate(capacity: self.capacity)
        if let source, count > 0 { base.update(from: source, count: count) }
    }

    deinit {
        base.deallocate()
    }
}
