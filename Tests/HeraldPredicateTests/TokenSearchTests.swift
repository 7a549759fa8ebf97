import HeraldModel
import Testing
@testable import HeraldPredicate

@Suite("Full-text token search")
struct TokenSearchTests {
    @Test("tokenizing folds case and diacritics, splits on non-alphanumerics and drops stop words", arguments: [
        ("The Café, and BREAD!", ["cafe", "bread"]),
        ("e-mail  is_not user@host.com", ["e", "mail", "user", "host", "com"]),
        ("Crème brûlée 2024", ["creme", "brulee", "2024"]),
        ("e\u{301}te\u{301}", ["ete"]),
        ("a an and are as at be but by for if in into is it no not of on or such that the their then there these they this to was will with", []),
        ("日本語 テキスト", ["日本語", "テキスト"]),
    ])
    func tokenize(text: String, tokens: [String]) {
        #expect(FullTextTokenizer.tokens(of: text) == tokens)
    }

    @Test("SELF CONTAINS matches any token in any string or string-list field", arguments: [
        ("SELF CONTAINS 'milk'", true),
        ("SELF CONTAINS 'MILK'", true),
        ("self contains 'emile'", true),
        ("SELF CONTAINS 'cafe'", true),          // from the tags list
        ("SELF CONTAINS 'butter milk'", true),   // any of the tokens
        ("SELF CONTAINS 'butter'", false),
        ("SELF CONTAINS 'mil'", false),          // whole tokens only
        ("SELF CONTAINS 'the'", false),          // only stop words: matches nothing
        ("SELF CONTAINS 'butter' AND SELF CONTAINS 'milk'", false),
        ("SELF CONTAINS 'bread' AND SELF CONTAINS 'milk'", true),
        ("allTokens TOKENMATCHES[cdl] 'EGGS'", true),
        ("body TOKENMATCHES 'eggs'", true),
        ("title TOKENMATCHES 'eggs'", false),
        ("SELF CONTAINS '_u1'", false),          // references are not text
    ])
    func search(format: String, expected: Bool) throws {
        #expect(try Fixtures.matches(format) == expected)
    }
}
