/// A bucket's field names, each with a value, found by the FNV-1a hash of their ASCII
/// bytes: a record's field names are looked up here once per change. Hand-written because
/// `Dictionary<String, _>` hashes every name with SipHash, a tenth of offering a record's
/// fields to its bucket. The hash starts from a random seed per table (as
/// `PostingHasher`'s): the names come from subscriptions, and names chosen to share a slot
/// under a fixed hash would make every lookup of the bucket walk them all.
///
/// Exact under Swift's string equality (canonical equivalence): ASCII names are hashed; a
/// name with any other byte — which may still equal an ASCII name, e.g. U+212A KELVIN SIGN
/// equals "K" — is compared with every name.
struct FieldNameTable<Value: Sendable>: Sendable {
    private var names: [String] = []
    private(set) var values: [Value] = []
    /// Positions in `names` by hash (open addressing, linear probing); -1: empty.
    private var buckets: [Int32] = Array(repeating: -1, count: 8)
    /// Each name's hash; `nil` for a name that is not ASCII.
    private var hashes: [UInt64?] = []
    /// Whether some name is not ASCII (then a lookup of an ASCII name compares them too).
    private var hasOtherNames = false
    /// The hash's starting state, random per table.
    private let seed = UInt64.random(in: .min ... .max)

    var count: Int { names.count }

    /// Every name with its value.
    var entries: Zip2Sequence<[String], [Value]> { zip(names, values) }

    /// The value of `name`, or `nil`.
    func value(of name: String) -> Value? {
        position(of: name).map { values[$0] }
    }

    /// Adds `name` or replaces its value.
    mutating func set(_ value: Value, for name: String) {
        if let position = position(of: name) {
            values[position] = value
            return
        }
        names.append(name)
        values.append(value)
        guard let hash = asciiHash(name) else {
            hasOtherNames = true
            hashes.append(nil)
            return
        }
        hashes.append(hash)
        if names.count * 2 > buckets.count {
            buckets = Array(repeating: -1, count: buckets.count * 2)
            for (position, hash) in hashes.enumerated() { if let hash { place(position, hash) } }
        } else {
            place(names.count - 1, hash)
        }
    }

    private mutating func place(_ position: Int, _ hash: UInt64) {
        let mask = buckets.count - 1
        var bucket = Int(truncatingIfNeeded: hash) & mask
        while buckets[bucket] >= 0 { bucket = (bucket + 1) & mask }
        buckets[bucket] = Int32(position)
    }

    private func position(of name: String) -> Int? {
        guard let hash = asciiHash(name) else { return names.firstIndex(of: name) }
        let mask = buckets.count - 1
        var bucket = Int(truncatingIfNeeded: hash) & mask
        while buckets[bucket] >= 0 {
            let position = Int(buckets[bucket])
            if hashes[position] == hash, names[position] == name { return position }
            bucket = (bucket + 1) & mask
        }
        // An ASCII name equals a non-ASCII one only through a canonical equivalence.
        return hasOtherNames ? names.firstIndex(of: name) : nil
    }

    /// FNV-1a of the name's bytes, mixed; `nil` when it is not ASCII.
    private func asciiHash(_ name: String) -> UInt64? {
        var name = name
        return name.withUTF8 { bytes in
            var state: UInt64 = seed ^ 0xcbf2_9ce4_8422_2325
            for byte in bytes {
                guard byte < 0x80 else { return nil }
                state = (state ^ UInt64(byte)) &* 0x100_0000_01b3
            }
            return state ^ (state >> 29)
        }
    }
}
