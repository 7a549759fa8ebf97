/// The postings of one query bucket: subscription slots by the hash of their posting key
/// (`PostingHasher`), in one flat open-addressing table (linear probing, backward-shift
/// deletion) — no key strings, no array per single-slot posting, one cache line per lookup
/// in the common case.
///
/// Each bucket is one word: the key's 32-bit tag (`tag(_:)`, from the 64-bit hash; never 0)
/// above its head, so a lookup reads the tag and the slot with one load (two arrays, hashes
/// and heads, cost two cache misses per posting found at a million subscriptions, and 12
/// bytes a bucket instead of 8). The head is the slot itself when the posting has one
/// subscription (≥ 0), else `-(list + 1)` for a list in `lists`. Keys whose tags are equal
/// share one posting: like a hash collision, that only adds candidates the compiled
/// predicate rejects (32 bits: about one pair of keys in 8,000 at a million keys). Hand-written
/// because `Dictionary` keeps a key object and an array per entry, several times the memory
/// at a million subscriptions.
///
/// Most lookups find nothing (a record offers every prefix length, run and token in use,
/// and few are anyone's key); at a million subscriptions the table is megabytes, so each
/// such lookup would be a cache miss. A bit filter of eight bits per bucket (three bits of
/// one 64-bit word per tag, set on insertion) answers most of them from a table an eighth
/// the size. A removal leaves its bit set (a stale bit only costs a lookup); the filter is
/// rebuilt from the table when it grows and on `rebuildFilter()`.
struct PostingTable: Sendable {
    /// `tag << 32 | head` per bucket; 0 marks an empty bucket.
    private var buckets: [UInt64]
    private var lists: [[Int32]] = []
    private var freeLists: [Int32] = []
    private(set) var count = 0
    /// Three bits per tag in one word (`filterProbe`), eight bits per bucket.
    private var filter: [UInt64]
    private var filterShift: UInt64

    init() {
        buckets = Array(repeating: 0, count: 16)
        (filter, filterShift) = Self.emptyFilter(buckets: 16)
    }

    /// The 32 bits of a key's hash the table keeps (mixed from all 64, so hashes that
    /// differ only in some bits still differ; never 0).
    static func tag(_ hash: UInt64) -> UInt32 {
        let tag = UInt32(truncatingIfNeeded: (hash &* 0xff51_afd7_ed55_8ccd) >> 32)
        return tag == 0 ? 1 : tag
    }

    private static func entry(_ tag: UInt32, _ head: Int32) -> UInt64 {
        UInt64(tag) << 32 | UInt64(UInt32(bitPattern: head))
    }

    private static func head(_ entry: UInt64) -> Int32 {
        Int32(bitPattern: UInt32(truncatingIfNeeded: entry))
    }

    private static func tag(ofEntry entry: UInt64) -> UInt32 {
        UInt32(truncatingIfNeeded: entry >> 32)
    }

    /// An empty filter for a table of `buckets` (a power of two): 8 × buckets bits, in
    /// words of 64, and the shift that picks a word.
    private static func emptyFilter(buckets: Int) -> ([UInt64], UInt64) {
        let words = max(1, buckets / 8)
        return (Array(repeating: 0, count: words), UInt64(64 - words.trailingZeroBitCount))
    }

    /// Where the filter keeps a tag: a word (the top bits of a multiplication) and three bits
    /// in it (from other bits of the product). Three bits in one word cost the same load as
    /// one and let through about one lookup of an absent key in a hundred instead of one in
    /// thirteen: at a million subscriptions each such lookup was a cache miss in the table.
    @inline(__always)
    private func filterProbe(_ tag: UInt32) -> (word: Int, bits: UInt64) {
        let mixed = UInt64(tag) &* 0x9E37_79B9_7F4A_7C15
        let bits: UInt64 = 1 << ((mixed >> 8) & 63) | 1 << ((mixed >> 14) & 63) | 1 << ((mixed >> 20) & 63)
        return (Int(truncatingIfNeeded: mixed >> filterShift), bits)
    }

    private mutating func mark(_ tag: UInt32) {
        let (word, bits) = filterProbe(tag)
        filter[word] |= bits
    }

    /// Clears the bits removals left behind (after many removals, e.g. once a compacted
    /// topic is loaded).
    mutating func rebuildFilter() {
        (filter, filterShift) = Self.emptyFilter(buckets: buckets.count)
        for entry in buckets where entry != 0 { mark(Self.tag(ofEntry: entry)) }
    }

    private var mask: Int { buckets.count - 1 }

    private func home(_ tag: UInt32) -> Int { Int(tag) & mask }

    /// The bucket holding `tag`, or `nil`.
    private func find(_ tag: UInt32) -> Int? {
        var bucket = home(tag)
        while true {
            let entry = buckets[bucket]
            if entry == 0 { return nil }
            if Self.tag(ofEntry: entry) == tag { return bucket }
            bucket = (bucket + 1) & mask
        }
    }

    /// Appends every slot filed under `hash` to `result`.
    func append(_ hash: UInt64, to result: inout [Int32]) {
        append([hash], to: &result)
    }

    /// Appends every slot filed under each of `hashes` (in their order). One pass over the
    /// table's storage, without a call or a copy of the table per hash, in three loops of
    /// independent loads so that the cache misses of different hashes overlap: the filter
    /// word of every hash (kept without a branch), then the home bucket of each that passed,
    /// then the probing from there. One loop that branched on each loaded word waited for
    /// the word whenever the branch went the unusual way — at a hit, i.e. for every
    /// candidate, its filter's miss and then its bucket's, one after the other.
    func append(_ hashes: [UInt64], to result: inout [Int32]) {
        hashes.withUnsafeBufferPointer { append($0, to: &result) }
    }

    /// `append(_:to:)` of hashes in a buffer (`PostingHashes`).
    func append(_ hashes: UnsafeBufferPointer<UInt64>, to result: inout [Int32]) {
        guard !hashes.isEmpty else { return }
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: hashes.count) { passed in
            withUnsafeTemporaryAllocation(of: UInt64.self, capacity: hashes.count) { homes in
                filter.withUnsafeBufferPointer { filter in
                    buckets.withUnsafeBufferPointer { buckets in
                        let mask = buckets.count - 1
                        var count = 0
                        for hash in hashes {
                            let tag = Self.tag(hash)
                            let (word, bits) = filterProbe(tag)
                            passed[count] = tag
                            count += filter[word] & bits == bits ? 1 : 0
                        }
                        for index in 0..<count { homes[index] = buckets[Int(passed[index]) & mask] }
                        for index in 0..<count {
                            let tag = passed[index]
                            var bucket = Int(tag) & mask
                            var entry = homes[index]
                            while entry != 0 {
                                if Self.tag(ofEntry: entry) == tag {
                                    let head = Self.head(entry)
                                    if head >= 0 { result.append(head) } else { result.append(contentsOf: lists[Int(-head - 1)]) }
                                    break
                                }
                                bucket = (bucket + 1) & mask
                                entry = buckets[bucket]
                            }
                        }
                    }
                }
            }
        }
    }

    mutating func insert(_ hash: UInt64, slot: Int32) {
        let tag = Self.tag(hash)
        if let bucket = find(tag) {
            let head = Self.head(buckets[bucket])
            if head >= 0 {
                buckets[bucket] = Self.entry(tag, -(newList([head, slot]) + 1))
            } else {
                lists[Int(-head - 1)].append(slot)
            }
            return
        }
        if (count + 1) * 4 > buckets.count * 3 { grow() }
        var bucket = home(tag)
        while buckets[bucket] != 0 { bucket = (bucket + 1) & mask }
        buckets[bucket] = Self.entry(tag, slot)
        mark(tag)
        count += 1
    }

    /// Removes one filing of `slot` under `hash` (none: nothing happens).
    mutating func remove(_ hash: UInt64, slot: Int32) {
        let tag = Self.tag(hash)
        guard let bucket = find(tag) else { return }
        let head = Self.head(buckets[bucket])
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
            buckets[bucket] = Self.entry(tag, lists[list][0])
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
        while buckets[next] != 0 {
            let wanted = home(Self.tag(ofEntry: buckets[next]))
            // Move the entry into the hole unless its home lies cyclically in (hole, next].
            let stays = hole <= next ? (hole < wanted && wanted <= next) : (hole < wanted || wanted <= next)
            if !stays {
                buckets[hole] = buckets[next]
                hole = next
            }
            next = (next + 1) & mask
        }
        buckets[hole] = 0
        count -= 1
    }

    private mutating func grow() {
        let old = buckets
        buckets = Array(repeating: 0, count: old.count * 2)
        for entry in old where entry != 0 {
            var bucket = home(Self.tag(ofEntry: entry))
            while buckets[bucket] != 0 { bucket = (bucket + 1) & mask }
            buckets[bucket] = entry
        }
        rebuildFilter()
    }
}
