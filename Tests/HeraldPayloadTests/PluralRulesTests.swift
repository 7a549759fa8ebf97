import Testing
@testable import HeraldPayload

/// Examples from CLDR 46 `plurals.xml` (`@integer` / `@decimal` sample lists), the same
/// as CLDR 42's (ICU 72) for these languages; every CLDR locale: PluralRulesSampleTests.
@Suite("PluralRules: CLDR cardinal rules")
struct PluralRulesTests {
    /// `(locale, number as written, expected category)`; numbers with a `.` are decimals
    /// with exactly those visible fraction digits.
    static let examples: [(String, String, PluralCategory)] = [
        // English / German: one only for integer 1.
        ("en", "1", .one), ("en", "0", .other), ("en", "2", .other), ("en", "16", .other),
        ("en", "1.0", .other), ("en", "0.5", .other), ("en", "1.5", .other), ("en-GB", "1", .one),
        ("de", "1", .one), ("de", "0", .other), ("de", "1.0", .other), ("de", "100", .other),
        // French: 0 and 1 and anything below 2 are one; exact millions are many.
        ("fr", "0", .one), ("fr", "1", .one), ("fr", "1.5", .one), ("fr", "0.0", .one), ("fr", "1.99", .one),
        ("fr", "2", .other), ("fr", "2.0", .other), ("fr", "17", .other), ("fr", "100000", .other),
        ("fr", "1000000", .many), ("fr", "2000000", .many), ("fr", "1000000.5", .other), ("fr-CA", "1.5", .one),
        // Spanish: n = 1 (so 1.0 too).
        ("es", "1", .one), ("es", "1.0", .one), ("es", "1.00", .one), ("es", "0", .other), ("es", "1.1", .other),
        ("es", "0.9", .other), ("es", "1000000", .many), ("es-MX", "2", .other),
        // Italian: i = 1 and v = 0.
        ("it", "1", .one), ("it", "1.0", .other), ("it", "0", .other), ("it", "1000000", .many), ("it", "1.5", .other),
        // Portuguese (Brazil and default) vs European Portuguese.
        ("pt", "0", .one), ("pt", "1", .one), ("pt", "1.5", .one), ("pt", "2", .other), ("pt", "2.0", .other),
        ("pt-BR", "0", .one), ("pt-BR", "1000000", .many),
        ("pt-PT", "0", .other), ("pt-PT", "1", .one), ("pt-PT", "1.5", .other), ("pt-PT", "0.5", .other),
        ("pt_PT", "0", .other), ("pt-AO", "0", .other), ("pt-PT", "1000000", .many),
        // Russian / Ukrainian.
        ("ru", "1", .one), ("ru", "21", .one), ("ru", "101", .one), ("ru", "1001", .one),
        ("ru", "2", .few), ("ru", "4", .few), ("ru", "22", .few), ("ru", "102", .few), ("ru", "1002", .few),
        ("ru", "0", .many), ("ru", "5", .many), ("ru", "11", .many), ("ru", "12", .many), ("ru", "14", .many),
        ("ru", "19", .many), ("ru", "100", .many), ("ru", "111", .many), ("ru", "1000", .many),
        ("ru", "1.5", .other), ("ru", "0.0", .other), ("ru", "10.0", .other), ("ru", "2.0", .other),
        ("uk", "1", .one), ("uk", "31", .one), ("uk", "3", .few), ("uk", "13", .many), ("uk", "25", .many),
        ("uk", "1.0", .other),
        // Polish: 21 is many (unlike Russian).
        ("pl", "1", .one), ("pl", "2", .few), ("pl", "24", .few), ("pl", "102", .few),
        ("pl", "0", .many), ("pl", "5", .many), ("pl", "12", .many), ("pl", "21", .many), ("pl", "100", .many),
        ("pl", "1000000", .many), ("pl", "1.5", .other), ("pl", "10.0", .other),
        // Czech: few for 2–4, many for any decimal.
        ("cs", "1", .one), ("cs", "2", .few), ("cs", "4", .few), ("cs", "0", .other), ("cs", "5", .other),
        ("cs", "22", .other), ("cs", "1000", .other), ("cs", "1.5", .many), ("cs", "0.0", .many), ("cs", "10.0", .many),
        // Arabic: zero one two few many other, n % 100 ranges for whole numbers only.
        ("ar", "0", .zero), ("ar", "0.0", .zero), ("ar", "1", .one), ("ar", "1.0", .one), ("ar", "2", .two),
        ("ar", "2.00", .two), ("ar", "3", .few), ("ar", "10", .few), ("ar", "103", .few), ("ar", "110", .few),
        ("ar", "1003", .few), ("ar", "3.0", .few), ("ar", "11", .many), ("ar", "26", .many), ("ar", "99", .many),
        ("ar", "111", .many), ("ar", "1011", .many), ("ar", "11.0", .many),
        ("ar", "100", .other), ("ar", "102", .other), ("ar", "200", .other), ("ar", "1000", .other),
        ("ar", "0.1", .other), ("ar", "1.5", .other), ("ar", "3.5", .other), ("ar", "10.1", .other),
        // Hebrew (CLDR 42+): one includes 0.x, no many.
        ("he", "1", .one), ("he", "0.5", .one), ("he", "0.0", .one), ("he", "0.05", .one),
        ("he", "2", .two), ("he", "0", .other), ("he", "3", .other), ("he", "10", .other), ("he", "20", .other),
        ("he", "100", .other), ("he", "1.0", .other), ("he", "2.0", .other), ("he", "2.5", .other), ("iw", "2", .two),
        // CLDR 42 changes (ICU 72), beyond Hebrew above: Catalan like Italian, Icelandic's
        // decimals by t % 10, Maltese's two.
        ("ca", "1", .one), ("ca", "1.0", .other), ("ca", "0", .other), ("ca", "1000000", .many),
        ("is", "1", .one), ("is", "21", .one), ("is", "11", .other), ("is", "0.1", .one), ("is", "10.1", .one),
        ("is", "0.2", .other), ("is", "1.2", .other), ("is", "0.11", .other), ("is", "2.0", .other),
        ("mt", "1", .one), ("mt", "2", .two), ("mt", "0", .few), ("mt", "3", .few), ("mt", "103", .few),
        ("mt", "11", .many), ("mt", "119", .many), ("mt", "20", .other), ("mt", "102", .other), ("mt", "1.5", .other),
        // No plural forms.
        ("ja", "0", .other), ("ja", "1", .other), ("ja", "1.5", .other),
        ("zh", "1", .other), ("zh-Hans-CN", "1", .other), ("zh_Hant_TW", "2", .other), ("ko", "1", .other),
        // Unknown languages use only other.
        ("xx", "1", .other), ("", "1", .other), ("tlh-KX", "1", .other),
    ]

    @Test("categories match CLDR examples", arguments: examples)
    func categories(locale: String, number: String, expected: PluralCategory) throws {
        let operands = try #require(PluralOperands(decimal: number))
        let rules = PluralRules(localeIdentifier: locale)
        #expect(rules.category(for: operands) == expected, "\(locale) \(number) [\(operands)]")
        #expect(rules.categories.contains(expected))
    }

    @Test("operands of decimal text", arguments: [
        ("1", PluralOperands(i: 1, v: 0, w: 0, f: 0, t: 0)),
        ("1.0", PluralOperands(i: 1, v: 1, w: 0, f: 0, t: 0)),
        ("1.50", PluralOperands(i: 1, v: 2, w: 1, f: 50, t: 5)),
        ("-3.05", PluralOperands(i: 3, v: 2, w: 2, f: 5, t: 5)),
        ("0.000", PluralOperands(i: 0, v: 3, w: 0, f: 0, t: 0)),
        ("1234567", PluralOperands(i: 1_234_567, v: 0, w: 0, f: 0, t: 0)),
    ])
    func decimalOperands(text: String, expected: PluralOperands) throws {
        #expect(PluralOperands(decimal: text) == expected)
    }

    @Test("malformed decimal text has no operands", arguments: ["", "abc", "1.", ".5", "1.2.3", "1e5", "--1", "١"])
    func malformedDecimals(text: String) {
        #expect(PluralOperands(decimal: text) == nil)
    }

    @Test("operands of integers and doubles")
    func numericOperands() throws {
        #expect(PluralOperands(Int64.min).i == Int64.min.magnitude % 1_000_000_000_000_000_000)
        #expect(PluralOperands(-21) == PluralOperands(decimal: "21"))
        #expect(PluralOperands(1.0) == PluralOperands(decimal: "1"))
        #expect(PluralOperands(1.5) == PluralOperands(decimal: "1.5"))
        #expect(PluralOperands(-0.25) == PluralOperands(decimal: "0.25"))
        #expect(PluralOperands(0.00001) == PluralOperands(decimal: "0.00001"))
        #expect(PluralOperands(2e20)?.v == 0)
        #expect(PluralOperands(Double.nan) == nil)
        #expect(PluralOperands(-Double.infinity) == nil)
    }

    @Test("a zero form is used for 0 in every language (Apple), other forms follow CLDR", arguments: [
        ("en", "0", [PluralCategory.zero, .one, .other], PluralCategory.zero),
        ("en", "0.0", [.zero, .one, .other], .zero),
        ("en", "0", [.one, .other], .other),
        ("en", "1", [.zero, .one, .other], .one),
        ("fr", "0", [.zero, .one, .other], .zero),
        ("fr", "0", [.one, .other], .one),
        ("ru", "0", [.zero, .one, .few, .many, .other], .zero),
        ("ru", "0", [.one, .few, .many, .other], .many),
        ("ru", "5", [.one, .few, .other], .other),
        ("ja", "0", [.zero, .other], .zero),
        ("ja", "1", [.zero, .one, .other], .other),
        ("ar", "0", [.zero, .other], .zero),
        ("he", "0.5", [.zero, .one, .other], .one),
    ])
    func zeroForm(locale: String, number: String, written: [PluralCategory], expected: PluralCategory) throws {
        let forms = Dictionary(uniqueKeysWithValues: written.map { ($0, $0.rawValue) })
        let chosen = try #require(PluralRules(localeIdentifier: locale).selectForm(for: PluralOperands(decimal: number), in: forms))
        #expect(chosen.category == expected)
        #expect(chosen.form == expected.rawValue)
    }

    @Test("no number selects other; no other form selects nothing")
    func missingNumberOrOther() {
        let rules = PluralRules(localeIdentifier: "en")
        #expect(rules.selectForm(for: nil, in: [.one: "a", .other: "b"])?.form == "b")
        #expect(rules.selectForm(for: PluralOperands(2), in: [.one: "a"]) == nil)
    }

    @Test("language tags are case-insensitive and accept underscores")
    func tags() {
        #expect(PluralRules(localeIdentifier: "PT_pt") == PluralRules(localeIdentifier: "pt-PT"))
        #expect(PluralRules(localeIdentifier: "pt-BR") == PluralRules(localeIdentifier: "pt"))
        #expect(PluralRules(localeIdentifier: "FR") == PluralRules(localeIdentifier: "fr-CA"))
        #expect(PluralRules(localeIdentifier: "ar").categories == [.zero, .one, .two, .few, .many, .other])
    }
}

extension PluralOperands {
    init(i: UInt64, v: Int, w: Int, f: UInt64, t: UInt64) {
        self.init(Int64(0))
        self.i = i
        self.v = v
        self.w = w
        self.f = f
        self.t = t
    }
}
