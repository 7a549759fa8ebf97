/// SHA-1 (FIPS 180-4), only for name-based UUIDs (RFC 9562 version 5).
///
/// Foundation on Linux has no hash functions, and `HeraldModel` depends on no package (it
/// is also compiled alone, by `scripts/codec-bench.sh`), so this small implementation
/// exists. SHA-1 is broken for collision resistance; it is used here only because UUIDv5 is
/// defined with it, never for security.
///
/// It allocates nothing: the match stage derives a notification ID per match, and the first
/// version (padded copy of the message, an 80-word array, the digest built from five
/// arrays) made ~4% of the pipeline's allocations (perf, `herald bench pipeline`).
enum SHA1 {
    /// The five words of a digest, in order.
    typealias Words = (UInt32, UInt32, UInt32, UInt32, UInt32)

    /// The 20-byte digest of `message`.
    static func digest(_ message: [UInt8]) -> [UInt8] {
        let h = message.withUnsafeBytes { words(of: $0, UnsafeRawBufferPointer(start: nil, count: 0)) }
        return [h.0, h.1, h.2, h.3, h.4].flatMap { word in
            [UInt8(word >> 24), UInt8(truncatingIfNeeded: word >> 16), UInt8(truncatingIfNeeded: word >> 8),
             UInt8(truncatingIfNeeded: word)]
        }
    }

    /// The digest of `first` followed by `second`, as five big-endian words.
    static func words(of first: UnsafeRawBufferPointer, _ second: UnsafeRawBufferPointer) -> Words {
        let length = first.count + second.count
        // The message, 0x80, zeros, and the bit length in 8 bytes: a whole number of blocks.
        let blocks = (length + 8) / 64 + 1
        let bitLength = UInt64(length) &* 8
        func byte(at position: Int) -> UInt8 {
            if position < first.count { return first[position] }
            if position < length { return second[position - first.count] }
            if position == length { return 0x80 }
            let fromEnd = blocks * 64 - 1 - position
            return fromEnd < 8 ? UInt8(truncatingIfNeeded: bitLength >> UInt64(fromEnd * 8)) : 0
        }
        var h: Words = (0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0)
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 80) { w in
            for block in 0..<blocks {
                let start = block * 64
                for i in 0..<16 {
                    let j = start + i * 4
                    w[i] = UInt32(byte(at: j)) << 24 | UInt32(byte(at: j + 1)) << 16 | UInt32(byte(at: j + 2)) << 8
                        | UInt32(byte(at: j + 3))
                }
                for i in 16..<80 { w[i] = (w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16]).rotatedLeft(1) }
                var (a, b, c, d, e) = h
                for i in 0..<80 {
                    let (f, k): (UInt32, UInt32) = switch i {
                    case 0..<20: ((b & c) | (~b & d), 0x5A82_7999)
                    case 20..<40: (b ^ c ^ d, 0x6ED9_EBA1)
                    case 40..<60: ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC)
                    default: (b ^ c ^ d, 0xCA62_C1D6)
                    }
                    let temp = a.rotatedLeft(5) &+ f &+ e &+ k &+ w[i]
                    (e, d, c, b, a) = (d, c, b.rotatedLeft(30), a, temp)
                }
                h = (h.0 &+ a, h.1 &+ b, h.2 &+ c, h.3 &+ d, h.4 &+ e)
            }
        }
        return h
    }
}

extension UInt32 {
    fileprivate func rotatedLeft(_ count: UInt32) -> UInt32 { (self << count) | (self >> (32 - count)) }
}
