/// The posting hashes one record offers, gathered for a single pass over the posting table
/// (`PostingTable.append`): a buffer that doubles when full, owned by `RecordOffer.collect`
/// for the walk of one record (it calls `deallocate()`). Hand-written because appending to an
/// `Array` called the runtime to check that its storage was unique at every hash (about
/// fifty a change).
struct PostingHashes {
    private var base: UnsafeMutablePointer<UInt64>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int) {
        self.capacity = max(1, capacity)
        base = .allocate(capacity: self.capacity)
    }

    @inline(__always)
    mutating func append(_ hash: UInt64) {
        if count == capacity { grow() }
        base[count] = hash
        count += 1
    }

    /// The hashes so far; valid until the next `append` or `deallocate()`.
    var buffer: UnsafeBufferPointer<UInt64> { UnsafeBufferPointer(start: base, count: count) }

    func deallocate() {
        base.deallocate()
    }

    private mutating func grow() {
        let larger = UnsafeMutablePointer<UInt64>.allocate(capacity: capacity * 2)
        larger.moveInitialize(from: base, count: count)
        base.deallocate()
        base = larger
        capacity *= 2
    }
}
