import HeraldPredicate
import Testing

/// The nesting limit guards the parser's stack; it must count a predicate and its
/// canonical rendering alike, or an accepted predicate renders to one that is refused.
@Suite("Nesting depth")
struct NestingDepthTests {
    @Test("a chain of NOTs renders as NOT (…) and parses back, up to the limit", arguments: [90, 127, 128])
    func notChainRoundTrips(count: Int) throws {
        // Found by FuzzPredicate: 90 `!` parsed, but their rendering `NOT (NOT (…))` counted
        // each level twice and was refused as too deeply nested.
        let format = String(repeating: "!", count: count) + "'a' BEGINSWITH ''"
        let predicate = try RecordPredicate(format: format)
        let rendered = predicate.canonicalFormat
        #expect(rendered.hasPrefix("NOT (NOT ("))
        #expect(try RecordPredicate(format: rendered) == predicate)
    }

    @Test("nesting past the limit is refused, by NOTs or by parentheses")
    func pastTheLimit() {
        for format in [
            String(repeating: "!", count: 129) + "a == 1",
            String(repeating: "(", count: 129) + "a == 1" + String(repeating: ")", count: 129),
            String(repeating: "NOT (", count: 129) + "a == 1" + String(repeating: ")", count: 129),
        ] {
            #expect(throws: RecordPredicateError.self) { try RecordPredicate(format: format) }
        }
    }
}
