import HeraldTestSupport
import Testing
@testable import HeraldMatcher

@Suite("Field name table")
struct FieldNameTableTests {
    /// Names that collide under Swift's string equality only through canonical equivalence
    /// (U+212A KELVIN SIGN is "K"; é precomposed or e + combining acute), others ASCII and
    /// not, short and long (past the small-string limit), enough to grow the table.
    private static let pool: [String] = [
        "K", "\u{212A}", "caf\u{E9}", "cafe\u{301}", "title", "Title", "body", "", "a_very_long_field_name_past_15_bytes",
        "\u{C5}ngstr\u{F6}m", "\u{212B}ngstr\u{F6}m", "price", "priceX", "x",
    ] + (0..<40).map { "field\($0)" }

    @Test("finds what a Dictionary finds, canonically equivalent spellings included, through growth")
    func agreesWithDictionary() {
        var random = SeededGenerator(seed: 11)
        for _ in 0..<50 {
            var table = FieldNameTable<Int>()
            var model: [String: Int] = [:]
            for step in 0..<Int.random(in: 1..<60, using: &random) {
                let name = Self.pool.randomElement(using: &random)!
                table.set(step, for: name)
                model[name] = step
                #expect(table.count == model.count)
            }
            for name in Self.pool {
                #expect(table.value(of: name) == model[name], "\(name.unicodeScalars.map(\.value))")
            }
            #expect(Array(table.entries).count == model.count)
            #expect(Dictionary(table.entries.map { ($0, $1) }, uniquingKeysWith: { first, _ in first }) == model)
        }
    }

    @Test("an ASCII name finds its non-ASCII equivalent and back")
    func canonicalEquivalents() {
        var table = FieldNameTable<Int>()
        table.set(1, for: "\u{212A}")
        table.set(2, for: "cafe\u{301}")
        #expect(table.value(of: "K") == 1)
        #expect(table.value(of: "caf\u{E9}") == 2)
        var ascii = FieldNameTable<Int>()
        ascii.set(3, for: "K")
        #expect(ascii.value(of: "\u{212A}") == 3)
        #expect(ascii.value(of: "k") == nil)
    }
}
