/// The word-at-a-time parts of `PostingHasher`: a key's bytes are read as little-endian
/// 64-bit words, eight bytes at a time, each folded into the running state with one 64×64→128
/// bit multiplication (the "mum" mix of wyhash), so a key of up to eight bytes — most
/// prefixes, runs and tokens — costs one load and one multiplication instead of a step per
/// byte. Hand-written: the standard `Hasher` cannot be started from a saved state per key
/// and costs a SipHash round per key.
///
/// A key of `n` bytes is `n − 1` divided by 8 whole words (`absorb`), then a last word of
/// the 1–8 bytes left (none for the empty key) closed together with `n` (`close`). Suffix
/// keys read their bytes back to front (`reversedWord`).
enum PostingWords {
    private static let absorbing: UInt64 = 0xa076_1d64_78bd_642f
    private static let closing: UInt64 = 0xe703_7ed1_a0b4_28db
    private static let ones: UInt64 = 0x0101_0101_0101_0101

    /// The high and low halves of the full product, folded.
    @inline(__always)
    static func mix(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let (high, low) = a.multipliedFullWidth(by: b)
        return high ^ low
    }

    /// The state after one whole word of eight bytes.
    @inline(__always)
    static func absorb(_ state: UInt64, _ word: UInt64) -> UInt64 {
        mix(state ^ word, absorbing)
    }

    /// The key's state after its last word (`count` ≤ 8 bytes, the rest zero) and its length.
    @inline(__always)
    static func close(_ state: UInt64, _ word: UInt64, length: Int) -> UInt64 {
        mix(state ^ word, closing ^ UInt64(truncatingIfNeeded: length))
    }

    /// The low `count` bytes (0...8) of a word.
    @inline(__always)
    static func low(_ word: UInt64, _ count: Int) -> UInt64 {
        count >= 8 ? word : word & ((1 << UInt64(8 * count)) &- 1)
    }

    /// The `count` (0...8) bytes of `bytes` from `start` as a little-endian word, the rest
    /// zero; `start + count` must not exceed `bytes.count`. Never reads outside `bytes`.
    @inline(__always)
    static func word(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, count: Int) -> UInt64 {
        guard let base = bytes.baseAddress, count > 0 else { return 0 }
        if bytes.count >= 8 {
            let raw = UnsafeRawPointer(base)
            if start + 8 <= bytes.count {
                return low(UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: start, as: UInt64.self)), count)
            }
            // Near the end: the buffer's last eight bytes, shifted down to `start`.
            let last = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: bytes.count - 8, as: UInt64.self))
            return low(last >> UInt64(8 * (start + 8 - bytes.count)), count)
        }
        // A buffer under eight bytes (a small string's): two overlapping loads of four (or
        // two) bytes inside the piece, instead of a step per byte.
        let raw = UnsafeRawPointer(base)
        if count >= 4 {
            let first = UInt64(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: start, as: UInt32.self)))
            let last = UInt64(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: start + count - 4, as: UInt32.self)))
            return first | last << UInt64(8 * (count - 4))
        }
        if count >= 2 {
            let first = UInt64(UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: start, as: UInt16.self)))
            let last = UInt64(UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: start + count - 2, as: UInt16.self)))
            return first | last << UInt64(8 * (count - 2))
        }
        return UInt64(base[start])
    }

    /// The `count` (0...8) bytes of `bytes` before `end`, last byte first, as a word.
    @inline(__always)
    static func reversedWord(_ bytes: UnsafeBufferPointer<UInt8>, before end: Int, count: Int) -> UInt64 {
        guard count > 0 else { return 0 }
        return word(bytes, from: end - count, count: count).byteSwapped >> UInt64(8 * (8 - count))
    }

    /// The word with its ASCII capitals lower-cased (every byte must be ASCII): what
    /// `Comparison.Options.fold` does to ASCII under `[c]`.
    @inline(__always)
    static func lowercased(_ word: UInt64) -> UInt64 {
        // Bytes below 0x80 plus at most 0x3f carry into no other byte: a byte's high bit
        // then says whether it was ≥ 0x41 ('A'), resp. ≥ 0x5b (after 'Z').
        let fromA = word &+ ones &* (0x80 - 0x41)
        let afterZ = word &+ ones &* (0x80 - 0x5b)
        let capitals = fromA & ~afterZ & (ones &* 0x80)
        return word | (capitals >> 2)
    }

    /// Whether every byte of the word is ASCII.
    @inline(__always)
    static func isASCII(_ word: UInt64) -> Bool {
        word & (ones &* 0x80) == 0
    }

    /// The hash state of `count` bytes of `bytes` from `start` (`reversed`: of the `count`
    /// bytes ending `start` bytes before the end, read back to front), from `origin`,
    /// lower-cased with `lowercasing` (ASCII bytes only).
    @inline(__always)
    static func state(
        _ origin: UInt64, _ bytes: UnsafeBufferPointer<UInt8>, from start: Int = 0, count: Int, reversed: Bool = false,
        lowercasing: Bool = false
    ) -> UInt64 {
        var state = origin
        var done = 0
        while count - done > 8 {
            state = absorb(state, piece(bytes, start + done, 8, reversed: reversed, lowercasing: lowercasing))
            done += 8
        }
        return close(state, piece(bytes, start + done, count - done, reversed: reversed, lowercasing: lowercasing), length: count)
    }

    /// `count` bytes from `offset` (`reversed`: counted from the end), folded when asked.
    @inline(__always)
    static func piece(_ bytes: UnsafeBufferPointer<UInt8>, _ offset: Int, _ count: Int, reversed: Bool, lowercasing: Bool) -> UInt64 {
        let word = reversed ? reversedWord(bytes, before: bytes.count - offset, count: count) : word(bytes, from: offset, count: count)
        return lowercasing ? lowercased(word) : word
    }
}
