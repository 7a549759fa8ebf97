import Foundation

/// Hashes a posting key — a probe number and an `IndexKey` — to 64 bits, the only form in
/// which `PostingTable` keeps it.
///
/// Equal keys always hash equal; unequal keys may collide, which only makes a subscription
/// a candidate for a record it does not match, and the compiled predicate rejects it. So a
/// bucket stores no key strings at all, and a record is looked up without building any: a
/// prefix or suffix is hashed while walking the record's bytes once, every length in use
/// read off the same running state, the way Quamina walks a field's value once through an
/// automaton of all patterns instead of asking once per pattern.
///
/// Strings hash as their NFC UTF-8 bytes (ASCII strings are NFC already), so canonically
/// equivalent strings — which Swift compares equal — hash equal. Suffixes hash their bytes
/// back to front, so one backward walk reads every suffix length. Hand-written (FNV-1a per
/// byte, then a 64-bit finalizer) because the standard `Hasher` cannot be forked mid-string
/// and costs a SipHash round per key.
struct PostingHasher: Sendable {
    private let seed: UInt64
    /// All ones; fewer bits in tests, to make collisions common (`SubscriptionIndex(rules:hashBits:)`).
    private let mask: UInt64

    private static let prime: UInt64 = 0x100_0000_01b3
    private static let stringTag: UInt8 = 0x73
    private static let numberTag: UInt8 = 0x6e

    /// - Parameter bits: how many bits of the hash are kept (64 in production).
    init(bits: Int = 64, seed: UInt64 = UInt64.random(in: .min ... .max)) {
        self.seed = seed
        mask = bits >= 64 ? .max : (1 << UInt64(max(1, bits))) - 1
    }

    /// The running state of a key of probe `number` before its first byte.
    func start(_ number: Int32, tag: UInt8 = PostingHasher.stringTag) -> UInt64 {
        var state = seed ^ 0xcbf2_9ce4_8422_2325
        var bits = UInt32(bitPattern: number)
        for _ in 0..<4 {
            state = Self.add(state, UInt8(truncatingIfNeeded: bits))
            bits >>= 8
        }
        return Self.add(state, tag)
    }

    static func add(_ state: UInt64, _ byte: UInt8) -> UInt64 {
        (state ^ UInt64(byte)) &* prime
    }

    /// The hash of the bytes added so far; never 0 (`PostingTable`'s empty mark).
    func finish(_ state: UInt64) -> UInt64 {
        var mixed = state
        mixed ^= mixed >> 33
        mixed &*= 0xff51_afd7_ed55_8ccd
        mixed ^= mixed >> 33
        mixed &*= 0xc4ce_b9fe_1a85_ec53
        mixed ^= mixed >> 33
        let kept = mixed & mask
        return kept == 0 ? 1 : kept
    }

    /// The hash of a key of probe `number`; suffix keys (`reversed`) hash back to front.
    func hash(_ number: Int32, _ key: IndexKey, reversed: Bool = false) -> UInt64 {
        switch key {
        case .number(let value):
            var state = start(number, tag: Self.numberTag)
            // -0 == 0: both hash as 0.
            var bits = value == 0 ? 0 : value.bitPattern
            for _ in 0..<8 {
                state = Self.add(state, UInt8(truncatingIfNeeded: bits))
                bits >>= 8
            }
            return finish(state)
        case .string(let text):
            return hash(number, string: text, reversed: reversed)
        }
    }

    /// The hash of `hash(number, .string(options.fold(text)))` when `text` is ASCII — the
    /// key of a value lookup under `[c]`/`[d]` folding — without making the folded string
    /// (ASCII folds only by lower-casing under `[c]`, `Comparison.Options.fold`); `nil`
    /// when `text` is not ASCII.
    func hash(_ number: Int32, ascii text: String, lowercasing: Bool) -> UInt64? {
        var utf8 = text
        return utf8.withUTF8 { bytes in
            var state = start(number)
            for byte in bytes {
                guard byte < 0x80 else { return nil }
                state = Self.add(state, Self.byte(byte, lowercasing: lowercasing))
            }
            return finish(state)
        }
    }

    /// The hash of one string key of probe `number`.
    func hash(_ number: Int32, string text: String, reversed: Bool = false) -> UInt64 {
        if !reversed {
            // ASCII (most keys) in one pass, no separate check for normalization.
            var utf8 = text
            let ascii: UInt64? = utf8.withUTF8 { bytes in
                var state = start(number)
                for byte in bytes {
                    guard byte < 0x80 else { return nil }
                    state = Self.add(state, byte)
                }
                return finish(state)
            }
            if let ascii { return ascii }
        }
        var state = start(number)
        Self.withNormalizedBytes(text) { bytes in
            if reversed {
                for byte in bytes.reversed() { state = Self.add(state, byte) }
            } else {
                for byte in bytes { state = Self.add(state, byte) }
            }
        }
        return finish(state)
    }

    /// Calls `body` with the hash of the prefix (or, `reversed`, the suffix) of every length
    /// in `lengths` (characters, ascending) that `text` is long enough for.
    func forEachAffix(_ number: Int32, of text: String, lengths: [Int], reversed: Bool, _ body: (UInt64) -> Void) {
        if SimpleText.isSimple(text) {
            forEachAffix(number, ofSimple: text, lengths: lengths, reversed: reversed, lowercasing: false, body)
            return
        }
        for length in lengths {
            guard let piece = reversed ? SimpleText.suffix(text, length) : SimpleText.prefix(text, length) else { break }
            body(hash(number, string: piece, reversed: reversed))
        }
    }

    /// `forEachAffix` of a `SimpleText` (one character per byte): one walk, each length read
    /// off the running state; with `lowercasing`, as if the text were lower-cased first (the
    /// `[c]` folding of ASCII text, without making the folded string).
    func forEachAffix(
        _ number: Int32, ofSimple text: String, lengths: [Int], reversed: Bool, lowercasing: Bool, _ body: (UInt64) -> Void
    ) {
        lengths.withUnsafeBufferPointer {
            forEachAffix(number, ofSimple: text, lengths: $0, reversed: reversed, lowercasing: lowercasing, body)
        }
    }

    /// `forEachAffix(_:ofSimple:lengths:reversed:lowercasing:_:)` with the lengths in a buffer
    /// (`RecordLookups` keeps every lookup's lengths in one array).
    func forEachAffix(
        _ number: Int32, ofSimple text: String, lengths: UnsafeBufferPointer<Int>, reversed: Bool, lowercasing: Bool,
        _ body: (UInt64) -> Void
    ) {
        guard let longest = lengths.last else { return }
        var utf8 = text
        utf8.withUTF8 { bytes in
            var state = start(number)
            var next = 0
            for step in 0..<min(longest, bytes.count) {
                state = Self.add(state, Self.byte(bytes[reversed ? bytes.count - 1 - step : step], lowercasing: lowercasing))
                while next < lengths.count, lengths[next] < step + 1 { next += 1 }
                if next < lengths.count, lengths[next] == step + 1 { body(finish(state)) }
            }
        }
    }

    /// Calls `body` with the hash of every run of each length in `lengths` (characters,
    /// ascending) of `text` (`Grams`): from each start position, one walk reads every length.
    func forEachGram(_ number: Int32, of text: String, lengths: [Int], _ body: (UInt64) -> Void) {
        if SimpleText.isSimple(text) {
            forEachGram(number, ofSimple: text, lengths: lengths, lowercasing: false, body)
            return
        }
        for length in lengths {
            Grams.forEach(in: text, length: length) { body(hash(number, string: $0)) }
        }
    }

    /// `forEachGram` of a `SimpleText`, lower-cased on the way with `lowercasing`.
    func forEachGram(_ number: Int32, ofSimple text: String, lengths: [Int], lowercasing: Bool, _ body: (UInt64) -> Void) {
        lengths.withUnsafeBufferPointer { forEachGram(number, ofSimple: text, lengths: $0, lowercasing: lowercasing, body) }
    }

    /// `forEachGram(_:ofSimple:lengths:lowercasing:_:)` with the lengths in a buffer.
    func forEachGram(
        _ number: Int32, ofSimple text: String, lengths: UnsafeBufferPointer<Int>, lowercasing: Bool, _ body: (UInt64) -> Void
    ) {
        guard let shortest = lengths.first, let longest = lengths.last else { return }
        var utf8 = text
        utf8.withUTF8 { bytes in
            guard bytes.count >= shortest else { return }
            let origin = start(number)
            for first in 0...(bytes.count - shortest) {
                var state = origin
                var next = 0
                for step in 0..<min(longest, bytes.count - first) {
                    state = Self.add(state, Self.byte(bytes[first + step], lowercasing: lowercasing))
                    if next < lengths.count, lengths[next] == step + 1 {
                        body(finish(state))
                        next += 1
                    }
                }
            }
        }
    }

    /// An ASCII byte, lower-cased when asked.
    private static func byte(_ byte: UInt8, lowercasing: Bool) -> UInt8 {
        lowercasing && byte >= 0x41 && byte <= 0x5a ? byte | 0x20 : byte
    }

    /// Calls `body` with the hash of every full-text search token of `text` when it is ASCII
    /// — runs of ASCII letters and digits, lower-cased, as `TokenSearch` tokenizes them —
    /// hashed straight from the bytes instead of making a string per token (tokenizing every
    /// string field was a tenth of matching a change). Stop words are hashed too: nobody is
    /// filed under one, so that costs only a lookup that finds nothing (or a candidate the
    /// predicate rejects), never a miss.
    /// - Returns: `false`, having called `body` for nothing, when `text` is not ASCII.
    func forEachASCIIToken(_ number: Int32, of text: String, _ body: (UInt64) -> Void) -> Bool {
        var utf8 = text
        return utf8.withUTF8 { bytes in
            for byte in bytes where byte >= 0x80 { return false }
            let origin = start(number)
            var state = origin
            var inToken = false
            for byte in bytes {
                let lower = byte | 0x20
                if (byte >= 0x30 && byte <= 0x39) || (lower >= 0x61 && lower <= 0x7a) {
                    state = Self.add(state, byte >= 0x41 && byte <= 0x5a ? lower : byte)
                    inToken = true
                } else if inToken {
                    body(finish(state))
                    state = origin
                    inToken = false
                }
            }
            if inToken { body(finish(state)) }
            return true
        }
    }

    /// The string's UTF-8 bytes in Unicode normalization form C (ASCII as is).
    private static func withNormalizedBytes(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        var normalized = text.utf8.allSatisfy({ $0 < 0x80 }) ? text : text.precomposedStringWithCanonicalMapping
        normalized.withUTF8(body)
    }
}
