/// The postings of one query bucket: subscription slots by the 64-bit hash of their posting
/// key (`PostingHasher`), in one flat open-addressing table (linear probing, backward-shift
/// deletion) — no key strings, no array per single-slot posting, one cache line per lookup
/// in the common case.
///
/// `heads[i]` is the slot itself when the posting has one subscription (≥ 0), else
/// `-(list + 1)` for a list in `lists`. Hand-written because `Dictionary` keeps a key object
/// and an array per entry, several times the memory at a million subscriptions.
///
/// Most lookups find nothing (a record offers every prefix length, run and token in use,
/// and few are anyone's key); at a million subscriptions the table is tens of megabytes, so
/// each such lookup would be a cache miss. A bit filter of eight bits per bucket (one bit
/// per hash, set on insertion; about 8% of bits set) answers most of them from a few
/// hundred kilobytes. A removal leaves its bit set (a stale bit only costs a lookup); the
/// filter is rebuilt from the table when it grows and on `rebuildFilter()`.
struct PostingTable: Sendable {
    /// Hashes; 0 marks an empty bucket (`PostingHasher.finish` never gives 0).
    private var hashes: [UInt64]
    private var heads: [Int32]
    private var lists: [[Int32]] = []
    private var freeLists: [Int32] = []
    private(set) var count = 0
    /// One bit per filter position (`filterBit`), eight per bucket of `hashes`.
    private var filter: [UInt64]
    private var filterShift: UInt64

    init() {
        hashes = Array(repeating: 0, count: 16)
        heads = Array(repeating: 0, count: 16)
        (filter, filterShift) = Self.emptyFilter(buckets: 16)
    }

    /// An empty filter for a table of `buckets` (a power of two): 8 × buckets bits.
    private static func emptyFilter(buckets: Int) -> ([UInt64], UInt64) {
        let bits = buckets.trailingZeroBitCount + 3
        return (Array(repeating: 0, count: max(1, (1 << bits) / 64)), UInt64(64 - bits))
    }

    /// The filter position of a hash: its top bits after a multiplication, independent of
    /// the low bits that pick its home bucket.
    private func filterBit(_ hash: UInt64) -> Int {
        Int(truncatingIfNeeded: (hash &* 0x9E37_79B9_7F4A_7C15) >> filterShift)
    }

    private func mayHold(_ hash: UInt64) -> Bool {
        let bit = filterBit(hash)
        return filter[bit >> 6] & (1 << UInt64(bit & 63)) != 0
    }

    private mutating func mark(_ hash: UInt64) {
        let bit = filterBit(hash)
        filter[bit >> 6] |= 1 << UInt64(bit & 63)
    }

    /// Clears the bits removals left behind (after many removals, e.g. once a compacted
    /// topic is loaded).
    mutating func rebuildFilter() {
        (filter, filterShift) = Self.emptyFilter(buckets: hashes.count)
        for hash in hashes where hash != 0 { mark(hash) }
    }

    private var mask: Int { hashes.count - 1 }

    private func home(_ hash: UInt64) -> Int { Int(truncatingIfNeeded: hash) & mask }

    /// The bucket holding `hash`, or `nil`.
    private func find(_ hash: UInt64) -> Int? {
        var bucket = home(hash)
        while true {
            let stored = hashes[bucket]
            if stored == hash { return bucket }
            if stored == 0 { return nil }
            bucket = (bucket + 1) & mask
        }
    }

    /// Calls `body` with every slot filed under `hash`.
    func forEach(_ hash: UInt64, _ body: (Int32) -> Void) {
        guard mayHold(hash), let bucket = find(hash) else { return }
        let head = heads[bucket]
        if head >= 0 {
            body(head)
        } else {
            for slot in lists[Int(-head - 1)] { body(slot) }
        }
    }

    /// Appends every slot filed under `hash` to `result`.
    func append(_ hash: UInt64, to result: inout [Int32]) {
        guard mayHold(hash), let bucket = find(hash) else { return }
        let head = heads[bucket]
        if head >= 0 {
            result.append(head)
        } else {
            result.append(contentsOf: lists[Int(-head - 1)])
        }
    }

    /// Appends every slot filed under each of `hashes` (in their order). One loop over the
    /// table's storage, without a call or a copy of the table per hash: the filter tests of
    /// successive hashes are independent loads, so their cache misses overlap.
    func append(_ hashes: [UInt64], to result: inout [Int32]) {
        filter.withUnsafeBufferPointer { filter in
            self.hashes.withUnsafeBufferPointer { table in
                heads.withUnsafeBufferPointer { heads in
                    let mask = table.count - 1
                    for hash in hashes {
                        let bit = filterBit(hash)
                        guard filter[bit >> 6] & (1 << UInt64(bit & 63)) != 0 else { continue }
                        var bucket = home(hash)
                        while true {
                            let stored = table[bucket]
                            if stored == hash {
                                let head = heads[bucket]
                                if head >= 0 { result.append(head) } else { result.append(contentsOf: lists[Int(-head - 1)]) }
                                break
                            }
                            if stored == 0 { break }
                            bucket = (bucket + 1) & mask
                        }
                    }
                }
            }
        }
    }

    mutating func insert(_ hash: UInt64, slot: Int32) {
        if let bucket = find(hash) {
            let head = heads[bucket]
            if head >= 0 {
                heads[bucket] = -(newList([head, slot]) + 1)
            } else {
                lists[Int(-head - 1)].append(slot)
            }
            return
        }
        if (count + 1) * 4 > hashes.count * 3 { grow() }
        var bucket = home(hash)
        while hashes[bucket] != 0 { bucket = (bucket + 1) & mask }
        hashes[bucket] = hash
        heads[bucket] = slot
        mark(hash)
        count += 1
    }

    /// Removes one filing of `slot` under `hash` (none: nothing happens).
    mutating func remove(_ hash: UInt64, slot: Int32) {
        guard let bucket = find(hash) else { return }
        let head = heads[bucket]
        if head >= 0 {
            guard head == slot else { return }
            erase(bucket)
            return
        }
        let list = Int(-head - 1)
        guard let index = lists[list].firstIndex(of: slot) else { return }
        lists[list].swapAt(index, lists[list].count - 1)
        lists[list].removeLast()
        if lists[list].count == 1 {
            heads[bucket] = lists[list][0]
            lists[list] = []
            freeLists.append(Int32(list))
        }
    }

    private mutating func newList(_ slots: [Int32]) -> Int32 {
        if let free = freeLists.popLast() {
            lists[Int(free)] = slots
            return free
        }
        lists.append(slots)
        return Int32(lists.count - 1)
    }

    /// Empties a bucket, moving later entries of its cluster back so every entry stays
    /// reachable from its home bucket without tombstones.
    private mutating func erase(_ bucket: Int) {
        var hole = bucket
        var next = (bucket + 1) & mask
        while hashes[next] != 0 {
            let wanted = home(hashes[next])
            // Move the entry into the hole unless its home lies cyclically in (hole, next].
            let stays = hole <= next ? (hole < wanted && wanted <= next) : (hole < wanted || wanted <= next)
            if !stays {
                hashes[hole] = hashes[next]
                heads[hole] = heads[next]
                hole = next
            }
            next = (next + 1) & mask
        }
        hashes[hole] = 0
        heads[hole] = 0
        count -= 1
    }

    private mutating func grow() {
        let oldHashes = hashes, oldHeads = heads
        hashes = Array(repeating: 0, count: oldHashes.count * 2)
        heads = Array(repeating: 0, count: oldHashes.count * 2)
        for (index, hash) in oldHashes.enumerated() where hash != 0 {
            var bucket = home(hash)
            while hashes[bucket] != 0 { bucket = (bucket + 1) & mask }
            hashes[bucket] = hash
            heads[bucket] = oldHeads[index]
        }
        rebuildFilter()
    }
}
