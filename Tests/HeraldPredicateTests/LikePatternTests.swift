import Testing
@testable import HeraldPredicate

@Suite("LIKE wildcards")
struct LikePatternTests {
    @Test("patterns", arguments: [
        ("*", "", true), ("*", "anything", true), ("", "", true), ("", "a", false),
        ("a*", "abc", true), ("*c", "abc", true), ("a*c", "abbbc", true), ("a*c", "abbb", false),
        ("a?c", "abc", true), ("a?c", "ac", false), ("???", "abc", true), ("???", "ab", false),
        ("*a*a*a*a*", "banana", false), ("*a*a*a*", "banana", true), ("*an*an*", "banana", true), ("*a*b", "aaaaaaaaaaaaaaaaaaaaaac", false),
        ("a\\*c", "a*c", true), ("a\\*c", "abc", false), ("a\\?c", "a?c", true), ("a\\?c", "abc", false),
        ("a\\\\c", "a\\c", true), ("ab\\", "ab\\", true),
        ("é?t*", "éété", true), ("?", "é", true), ("?", "e\u{301}", true), ("*é", "café", true),
        ("c?fe", "café", false), ("caf?", "café", true),
    ])
    func like(pattern: String, text: String, expected: Bool) {
        #expect(LikePattern(pattern).matches(text) == expected)
    }
}
