/// The postings of one query bucket: subscription slots by the 64-bit hash of their posting
/// key (`PostingHasher`), in one flat open-addressing table (linear probing, backward-shift
/// deletion) — no key strings, no array per single-slot posting, one cache line per lookup
/// in the common case.
///
/// `heads[i]` is the slot itself when the posting has one subscription (≥ 0), else
/// `-(list + 1)` for a list in `lists`. Hand-written because `Dictionary` keeps a key object
/// and an array per entry, several times the memory at a million subscriptions.
struct PostingTable: Sendable {
    /// Hashes; 0 marks an empty bucket (`PostingHasher.finish` never gives 0).
    private var hashes: [UInt64]
    private var heads: [Int32]
    private var lists: [[Int32]] = []
    private var freeLists: [Int32] = []
    private(set) var count = 0

    init() {
        hashes = Array(repeating: 0, count: 16)
        heads = Array(repeating: 0, count: 16)
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
        guard let bucket = find(hash) else { return }
        let head = heads[bucket]
        if head >= 0 {
            body(head)
        } else {
            for slot in lists[Int(-head - 1)] { body(slot) }
        }
    }

    /// Appends every slot filed under `hash` to `result`.
    func append(_ hash: UInt64, to result: inout [Int32]) {
        guard let bucket = find(hash) else { return }
        let head = heads[bucket]
        if head >= 0 {
            result.append(head)
        } else {
            result.append(contentsOf: lists[Int(-head - 1)])
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
    }
}
