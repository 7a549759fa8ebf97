import HeraldPredicate
import HeraldTestSupport
import Testing
@testable import HeraldMatcher

@Suite("Posting table and hasher")
struct PostingTableTests {
    private func slots(_ table: PostingTable, _ hash: UInt64) -> [Int32] {
        var result: [Int32] = []
        table.append(hash, to: &result)
        return result.sorted()
    }

    @Test("inserts and removals agree with a dictionary of lists, through growth and backward-shift deletions")
    func agreesWithDictionary() {
        var random = SeededGenerator(seed: 7)
        var table = PostingTable()
        var model: [UInt64: [Int32]] = [:]
        for _ in 0..<20_000 {
            // Few distinct hashes, clustered: long probe runs, lists, and deletions inside runs.
            let hash = UInt64.random(in: 1...300, using: &random) << (Bool.random(using: &random) ? 0 : 8)
            let slot = Int32.random(in: 0..<8, using: &random)
            if Int.random(in: 0..<5, using: &random) < 3 {
                table.insert(hash, slot: slot)
                model[hash, default: []].append(slot)
            } else if let index = model[hash]?.firstIndex(of: slot) {
                table.remove(hash, slot: slot)
                model[hash]?.remove(at: index)
                if model[hash]?.isEmpty == true { model[hash] = nil }
            }
        }
        #expect(table.count == model.count)
        let every = (1...300).flatMap({ [UInt64($0), UInt64($0) << 8] })
        for hash in every {
            #expect(slots(table, hash) == (model[hash] ?? []).sorted(), "hash \(hash)")
        }
        // Looking many hashes up in one pass gives what one lookup per hash gives, in order.
        let asked = every + every.prefix(40) + [UInt64.max, 12_345]
        var one: [Int32] = []
        for hash in asked { table.append(hash, to: &one) }
        var many: [Int32] = []
        table.append(asked, to: &many)
        #expect(many == one)
    }

    @Test("keys whose 32-bit tags are equal share one posting: a lookup of either brings both keys' slots, a removal one filing")
    func sharedTags() throws {
        // Two hashes with one tag, found by the birthday bound (about 2^16 tries).
        var seen: [UInt32: UInt64] = [:]
        var random = SeededGenerator(seed: 11)
        var pair: (UInt64, UInt64)?
        while pair == nil {
            let hash = UInt64.random(in: 1 ... .max, using: &random)
            let tag = PostingTable.tag(hash)
            if let other = seen[tag], other != hash { pair = (other, hash) } else { seen[tag] = hash }
        }
        let (a, b) = try #require(pair)
        var table = PostingTable()
        table.insert(a, slot: 1)
        table.insert(b, slot: 2)
        table.insert(b, slot: 1)
        #expect(table.count == 1)
        #expect(slots(table, a) == [1, 1, 2])
        #expect(slots(table, b) == [1, 1, 2])
        table.remove(a, slot: 1)
        #expect(slots(table, b) == [1, 2])
        table.remove(b, slot: 2)
        table.remove(b, slot: 1)
        #expect(slots(table, a) == [])
        #expect(table.count == 0)
    }

    @Test("tokens hashed from ASCII bytes are the hashes of the search tokens (stop words may be added); other text is left to the tokenizer")
    func asciiTokenHashes() {
        let hasher = PostingHasher(seed: 3)
        var random = SeededGenerator(seed: 5)
        let alphabet = Array("aZ09 x-Y_.,:!\t\nThE And OR w12 fox")
        var texts = ["", " ", "The quick brown FOX", "w123 and more", "x-42", "a1b2--C3", "urgent: call back", "and the"]
        for _ in 0..<300 {
            texts.append(String((0..<Int.random(in: 0..<24, using: &random)).map { _ in alphabet.randomElement(using: &random)! }))
        }
        for text in texts {
            var walked: [UInt64] = []
            #expect(hasher.forEachASCIIToken(9, of: text) { walked.append($0) })
            var expected: [UInt64] = []
            TokenSearch.forEachToken(in: text) { expected.append(hasher.hash(9, .string($0))) }
            #expect(Set(expected).isSubset(of: Set(walked)), "\(text)")
            // Every extra hash is a stop word's.
            var tokens: [String] = []
            for word in text.split(whereSeparator: { !($0.isASCII && ($0.isLetter || $0.isNumber)) }) { tokens.append(word.lowercased()) }
            #expect(walked == tokens.map { hasher.hash(9, .string($0)) }, "\(text)")
        }
        var called = false
        #expect(!hasher.forEachASCIIToken(9, of: "Caf\u{E9} noir") { _ in called = true })
        #expect(!called)
    }

    @Test("the token walk of long ASCII texts, every ASCII byte among them, splits them as a byte-by-byte split does")
    func asciiTokensOfLongTexts() {
        let hasher = PostingHasher(seed: 6)
        var random = SeededGenerator(seed: 7)
        // Every ASCII byte, and the bytes next to the token classes' bounds more often.
        let alphabet = (0..<128).map { Character(Unicode.Scalar(UInt8($0))) } + Array("/09:@AZ[`az{/09:@AZ[`az{")
        var texts = [String(repeating: "a", count: 64), String(repeating: "b", count: 65), String(repeating: "7", count: 128)]
        texts.append(String(repeating: "x", count: 63) + " " + String(repeating: "y", count: 70))
        texts.append(String(repeating: " ", count: 64) + "tail")
        let letters = Array("aZ9q")
        for number in 0..<600 {
            // Half the texts have long runs of letters (one separator every `word` bytes).
            let word = number.isMultiple(of: 2) ? Int.random(in: 1..<90, using: &random) : 0
            texts.append(String((0..<Int.random(in: 0..<200, using: &random)).map { index in
                guard word > 0 else { return alphabet.randomElement(using: &random)! }
                return index % word == 0 ? " " : letters.randomElement(using: &random)!
            }))
        }
        for text in texts {
            var walked: [UInt64] = []
            #expect(hasher.forEachASCIIToken(11, of: text) { walked.append($0) })
            let tokens = text.utf8.split(whereSeparator: { byte in
                !((48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte))
            }).map { String(decoding: $0, as: UTF8.self).lowercased() }
            #expect(walked == tokens.map { hasher.hash(11, .string($0)) }, "\(Array(text.utf8))")
        }
    }

    @Test("a string's hash is the same on the one-pass ASCII path and the normalizing path")
    func asciiHashPath() {
        let hasher = PostingHasher(seed: 4)
        for text in ["", "a", "grocery list", "p123 item", "x-42"] {
            // The ASCII path hashes the bytes as they are, as the walks do; folded on the way
            // under `[c]`, as if lower-cased first.
            #expect(hasher.hash(2, ascii: text, lowercasing: false) == hasher.hash(2, string: text))
            #expect(hasher.hash(2, ascii: text.uppercased(), lowercasing: true) == hasher.hash(2, string: text))
            // Non-ASCII text takes the normalizing path: canonically equal spellings meet.
            #expect(hasher.hash(2, string: text + "\u{E9}") == hasher.hash(2, string: text + "e\u{301}"))
            #expect(hasher.hash(2, .string(text)) == hasher.hash(2, string: text))
        }
    }

    @Test("words read near a buffer's end, from short buffers and back to front hold the bytes a byte-by-byte reading gives")
    func words() {
        var random = SeededGenerator(seed: 6)
        for size in 0..<21 {
            let bytes = (0..<size).map { _ in UInt8.random(in: 0..<0x80, using: &random) }
            bytes.withUnsafeBufferPointer { buffer in
                for start in 0...size {
                    for count in 0...min(8, size - start) {
                        let piece = Array(bytes[start..<start + count])
                        let forward = piece.enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << UInt64(8 * $1.offset) }
                        let backward = piece.reversed().enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << UInt64(8 * $1.offset) }
                        let lowered = piece.enumerated().reduce(UInt64(0)) { word, byte in
                            let folded = byte.element >= 0x41 && byte.element <= 0x5a ? byte.element | 0x20 : byte.element
                            return word | UInt64(folded) << UInt64(8 * byte.offset)
                        }
                        #expect(PostingWords.word(buffer, from: start, count: count) == forward, "\(size) \(start) \(count)")
                        #expect(PostingWords.reversedWord(buffer, before: start + count, count: count) == backward)
                        #expect(PostingWords.lowercased(forward) == lowered)
                    }
                }
            }
        }
        // Keys that differ only in length, or only past their eighth byte, hash apart.
        let hasher = PostingHasher(seed: 2)
        let keys = ["", "a", "a\u{0}", "abcdefgh", "abcdefgh\u{0}", "abcdefghi", "abcdefghj", "abcdefghijklmnopq", "abcdefghijklmnopr"]
        #expect(Set(keys.map { hasher.hash(1, string: $0) }).count == keys.count)
    }

    @Test("one walk's prefix, suffix and run hashes equal the hashes of the pieces; canonically equal strings hash equal")
    func affixHashes() {
        let hasher = PostingHasher(seed: 1)
        for text in ["grocery list", "we\u{301}b", "Wörk", "a\r\nb", "ab"] {
            for reversed in [false, true] {
                var walked: [UInt64] = []
                hasher.forEachAffix(3, of: text, lengths: [1, 2, 4, 8, 9, 12], reversed: reversed) { walked.append($0) }
                let pieces = [1, 2, 4, 8, 9, 12].compactMap { reversed ? SimpleText.suffix(text, $0) : SimpleText.prefix(text, $0) }
                #expect(walked == pieces.map { hasher.hash(3, .string($0), reversed: reversed) }, "\(text) reversed: \(reversed)")
            }
            for lengths in [[3], [6], [3, 6], [1, 2, 4], [3, 9]] {
                var walked: [UInt64] = []
                hasher.forEachGram(5, of: text, lengths: lengths) { walked.append($0) }
                var expected: [UInt64] = []
                for length in lengths { Grams.forEach(in: text, length: length) { expected.append(hasher.hash(5, .string($0))) } }
                #expect(walked.sorted() == expected.sorted(), "\(text) lengths \(lengths)")
            }
        }
        // Simple text lower-cased on the way: the hashes of the folded text's pieces.
        for text in ["Grocery LIST", "p12 Item", "W123 AND more", "x-42", "", "A Longer Title Of Many Words, Over Two Words"] {
            let folded = Comparison.Options.caseInsensitive.fold(text)
            for reversed in [false, true] {
                var walked: [UInt64] = [], expected: [UInt64] = []
                hasher.forEachAffix(3, ofSimple: text, lengths: [1, 3, 5, 8, 9, 16, 17, 40], reversed: reversed, lowercasing: true) { walked.append($0) }
                hasher.forEachAffix(3, of: folded, lengths: [1, 3, 5, 8, 9, 16, 17, 40], reversed: reversed) { expected.append($0) }
                #expect(walked == expected, "\(text) reversed: \(reversed)")
            }
            var walked: [UInt64] = [], expected: [UInt64] = []
            hasher.forEachGram(5, ofSimple: text, lengths: [3, 6, 9], lowercasing: true) { walked.append($0) }
            hasher.forEachGram(5, of: folded, lengths: [3, 6, 9]) { expected.append($0) }
            #expect(walked == expected, "\(text)")
        }
        var runs: [String] = []
        Grams.forEach(in: "we\u{301}bs", length: 3) { runs.append($0) }
        #expect(runs == ["we\u{301}b", "e\u{301}bs"])
        #expect(Grams.selective(of: "ab") == nil)
        #expect(Grams.selective(of: "abcde") == "bcd")
        #expect(Grams.selective(of: "w123456 and") == "23456 ")
        #expect(hasher.hash(0, .string("caf\u{E9}")) == hasher.hash(0, .string("cafe\u{301}")))
        #expect(hasher.hash(0, .string("\u{212A}")) == hasher.hash(0, .string("K")))
        #expect(hasher.hash(0, .number(0)) == hasher.hash(0, .number(-0.0)))
        #expect(hasher.hash(0, .string("ab")) != hasher.hash(1, .string("ab")))
        #expect(hasher.hash(0, .string("ab"), reversed: true) == hasher.hash(0, .string("ba")))
    }
}
