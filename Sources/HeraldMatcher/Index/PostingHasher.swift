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
/// back to front, so one backward walk reads every suffix length. Hand-written (eight bytes
/// a word, one multiplication each: `PostingWords`) because the standard `Hasher` cannot be
/// forked mid-string and costs a SipHash round per key.
struct PostingHasher: Sendable {
    private let seed: UInt64
    /// All ones; fewer bits in tests, to make collisions common (`SubscriptionIndex(rules:hashBits:)`).
    private let mask: UInt64

    private static let stringTag: UInt8 = 0x73
    private static let numberTag: UInt8 = 0x6e

    /// - Parameter bits: how many bits of the hash are kept (64 in production).
    init(bits: Int = 64, seed: UInt64 = UInt64.random(in: .min ... .max)) {
        self.seed = seed
        mask = bits >= 64 ? .max : (1 << UInt64(max(1, bits))) - 1
    }

    /// The running state of a key of probe `number` before its first byte.
    func start(_ number: Int32, tag: UInt8 = PostingHasher.stringTag) -> UInt64 {
        let probe = UInt64(UInt32(bitPattern: number)) << 8 | UInt64(tag)
        return PostingWords.mix(seed ^ 0xcbf2_9ce4_8422_2325, probe ^ 0x8ebc_6af0_9c88_c6e3)
    }

    /// The hash of a key's closed state (`PostingWords.close`); never 0 (`PostingTable`'s empty mark).
    func finish(_ state: UInt64) -> UInt64 {
        let kept = state & mask
        return kept == 0 ? 1 : kept
    }

    /// The hash of a key of probe `number`; suffix keys (`reversed`) hash back to front.
    func hash(_ number: Int32, _ key: IndexKey, reversed: Bool = false) -> UInt64 {
        switch key {
        case .number(let value):
            // -0 == 0: both hash as 0.
            let bits = value == 0 ? 0 : value.bitPattern
            return finish(PostingWords.close(start(number, tag: Self.numberTag), bits, length: 8))
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
            guard Self.isASCII(bytes) else { return nil }
            return hash(number, asciiBytes: bytes, lowercasing: lowercasing)
        }
    }

    /// `hash(_:ascii:lowercasing:)` of bytes known to be ASCII.
    func hash(_ number: Int32, asciiBytes bytes: UnsafeBufferPointer<UInt8>, lowercasing: Bool) -> UInt64 {
        finish(PostingWords.state(start(number), bytes, count: bytes.count, lowercasing: lowercasing))
    }

    /// The hash of one string key of probe `number`.
    func hash(_ number: Int32, string text: String, reversed: Bool = false) -> UInt64 {
        // ASCII (most keys) as it is, no separate check for normalization.
        var utf8 = text
        let ascii: UInt64? = utf8.withUTF8 { bytes in
            guard Self.isASCII(bytes) else { return nil }
            return finish(PostingWords.state(start(number), bytes, count: bytes.count, reversed: reversed))
        }
        if let ascii { return ascii }
        var state: UInt64 = 0
        Self.withNormalizedBytes(text) { bytes in
            state = PostingWords.state(start(number), bytes, count: bytes.count, reversed: reversed)
        }
        return finish(state)
    }

    /// Whether every byte is ASCII.
    private static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var any: UInt8 = 0
        for byte in bytes { any |= byte }
        return any < 0x80
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
        guard !lengths.isEmpty else { return }
        var utf8 = text
        utf8.withUTF8 { forEachAffix(number, ofSimpleBytes: $0, lengths: lengths, reversed: reversed, lowercasing: lowercasing, body) }
    }

    /// `forEachAffix(_:ofSimple:lengths:reversed:lowercasing:_:)` of a `SimpleText`'s bytes.
    func forEachAffix(
        _ number: Int32, ofSimpleBytes bytes: UnsafeBufferPointer<UInt8>, lengths: UnsafeBufferPointer<Int>, reversed: Bool,
        lowercasing: Bool, _ body: (UInt64) -> Void
    ) {
        // Whole words are shared by every longer length: absorbed once, in order.
        var state = start(number)
        var absorbed = 0
        for length in lengths {
            guard length <= bytes.count else { break }
            let whole = max(0, length - 1) / 8
            while absorbed < whole {
                state = PostingWords.absorb(
                    state, PostingWords.piece(bytes, 8 * absorbed, 8, reversed: reversed, lowercasing: lowercasing))
                absorbed += 1
            }
            let last = PostingWords.piece(bytes, 8 * whole, length - 8 * whole, reversed: reversed, lowercasing: lowercasing)
            body(finish(PostingWords.close(state, last, length: length)))
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
        var utf8 = text
        utf8.withUTF8 { forEachGram(number, ofSimpleBytes: $0, lengths: lengths, lowercasing: lowercasing, body) }
    }

    /// `forEachGram(_:ofSimple:lengths:lowercasing:_:)` of a `SimpleText`'s bytes.
    func forEachGram(
        _ number: Int32, ofSimpleBytes bytes: UnsafeBufferPointer<UInt8>, lengths: UnsafeBufferPointer<Int>, lowercasing: Bool,
        _ body: (UInt64) -> Void
    ) {
        guard let shortest = lengths.first, bytes.count >= shortest else { return }
        let origin = start(number)
        for first in 0...(bytes.count - shortest) {
            for length in lengths {
                guard first + length <= bytes.count else { break }
                body(finish(PostingWords.state(origin, bytes, from: first, count: length, lowercasing: lowercasing)))
            }
        }
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
            guard Self.isASCII(bytes) else { return false }
            forEachToken(number, ofASCII: bytes, body)
            return true
        }
    }

    /// `forEachASCIIToken` of bytes known to be ASCII.
    func forEachToken(_ number: Int32, ofASCII bytes: UnsafeBufferPointer<UInt8>, _ body: (UInt64) -> Void) {
        guard let base = bytes.baseAddress else { return }
        let origin = start(number)
        let count = bytes.count
        var offset = 0
        // Separators, then a token, by the byte's class alone (a bit of two constant words)
        // instead of `enumerated()` and three range tests per byte.
        while offset < count {
            while offset < count, !Self.isTokenByte(base[offset]) { offset += 1 }
            let first = offset
            while offset < count, Self.isTokenByte(base[offset]) { offset += 1 }
            guard offset > first else { break }
            body(finish(PostingWords.state(origin, bytes, from: first, count: offset - first, lowercasing: true)))
        }
    }

    /// Whether an ASCII byte is a letter or a digit (`TokenSearch`'s token characters): bits
    /// 48–57 of the low word are the digits, bits 1–26 and 33–58 of the high word the
    /// capitals and the small letters.
    @inline(__always)
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        let classes: UInt64 = byte < 64 ? 0x03ff_0000_0000_0000 : 0x07ff_fffe_07ff_fffe
        return (classes >> UInt64(byte & 63)) & 1 != 0
    }

    /// The string's UTF-8 bytes in Unicode normalization form C (ASCII as is).
    private static func withNormalizedBytes(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        var normalized = text.utf8.allSatisfy({ $0 < 0x80 }) ? text : text.precomposedStringWithCanonicalMapping
        normalized.withUTF8(body)
    }
}
