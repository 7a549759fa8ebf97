import HeraldTestSupport
import Testing
@testable import HeraldPredicate

/// The evaluator's fast paths (ASCII folding, membership sets) agree with the general ones.
@Suite("Fast paths")
struct FastPathTests {
    @Test("fast ASCII path agrees with folding", arguments: [
        ("Hello", "hello", true, true), ("Hello", "hell", false, true), ("Hell", "hello", false, false),
        ("HELLO world", "hello", false, true), ("e\u{301}", "é", false, false), ("e\u{301}", "e", true, true), ("É", "e", true, true),
        ("e\u{301}x", "e", false, true), ("ab", "ab", true, true), ("aB", "ac", false, false),
        ("Straße", "strasse", true, true), ("", "", true, true), ("x", "", false, true),
    ])
    func agrees(s: String, folded: String, equal: Bool, prefix: Bool) {
        let options: Comparison.Options = [.caseInsensitive, .diacriticInsensitive]
        let f = StringFolding.fold(s, options)
        #expect(StringFolding.foldedMatch(s, options, folded, prefixOnly: false) == (f == folded))
        #expect(StringFolding.foldedMatch(s, options, folded, prefixOnly: true) == f.hasPrefix(folded))
        #expect((f == folded) == equal)
        #expect(f.hasPrefix(folded) == prefix)
    }

    @Test("membership sets", arguments: [
        ("priority IN {1, 2, 5}", true), ("priority IN {1, 2, 3}", false), ("score IN {1, 2, 3}", false),
        ("priority IN {1, 2, 5.0}", true), ("due IN {1, 2, TIMESTAMP(1795300000000)}", true),
        ("title IN {'a', 'b', 'Groceries for Émile'}", true), ("title IN[cd] {'a', 'b', 'GROCERIES FOR EMILE'}", true),
        ("title IN {'a', 'b', 'GROCERIES FOR EMILE'}", false), ("owner IN {'a', 'b', '_u1'}", true),
        ("ANY tags IN {'x', 'y', 'home'}", true), ("ANY counts IN {7, 8, 3}", true), ("ANY counts IN {7, 8, 9}", false),
    ])
    func sets(format: String, expected: Bool) throws {
        #expect(try Fixtures.matches(format) == expected)
    }

    @Test("ASCII token scan agrees with the general tokenizer")
    func tokens() {
        var rng = SeededGenerator(seed: 99)
        let words = ["milk", "Milk", "MILK", "the", "eggs", "a", "x1", "noon", "bread", "é", "café"]
        let separators = [" ", ",", "-", "_", "!", "  ", "\n", "."]
        for _ in 0..<500 {
            let text = (0..<Int.random(in: 0...8, using: &rng)).map { _ in
                words.randomElement(using: &rng)! + separators.randomElement(using: &rng)!
            }.joined()
            let wanted = Set(FullTextTokenizer.tokens(of: words.randomElement(using: &rng)! + " " + words.randomElement(using: &rng)!))
            let lengths = Set(wanted.map(\.utf8.count))
            let fast = FullTextTokenizer.containsAny(of: wanted, lengths: lengths, maxLength: lengths.max() ?? 0, in: text)
            let slow = FullTextTokenizer.tokens(of: text).contains { wanted.contains($0) }
            #expect(fast == slow, "\(text) \(wanted)")
        }
    }
}
