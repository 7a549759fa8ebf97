import Foundation
import HeraldModel
import Testing
@testable import HeraldPredicate

@Suite("Canonical rendering")
struct RenderTests {
    static let corpus: [String] = [
        "TRUEPREDICATE", "FALSEPREDICATE",
        "a == 1", "a = 1", "a != -1", "a <> 2.5", "a < 1e10", "a =< 0x1F", "a > 0b11", "a >= 0o7",
        "a BETWEEN {1, 2}", "a IN {'x', \"y\", 3, 4.5, TRUE, NULL}",
        "a == 'quote \\' and \\\\ and \\n and \\u0001 and é'",
        "a BEGINSWITH[c] 'x'", "a ENDSWITH[d] 'x'", "a ==[l] 'x'", "a ==[cdln] 'x'", "a CONTAINS[cd] 'x'", "a LIKE '*x?'",
        "ANY tags == 'a'", "SOME tags IN {'a'}", "ALL tags BEGINSWITH 'a'", "NONE tags == 'a'",
        "'a' IN tags", "5 < a", "a == b",
        "a == 1 AND b == 2 AND c == 3", "a == 1 OR b == 2 AND c == 3", "(a == 1 OR b == 2) AND c == 3",
        "NOT a == 1", "NOT (a == 1 AND b == 2)", "NOT NOT a == 1", "!(a == 1 || b == 2)",
        "SELF CONTAINS 'Hello, World'", "allTokens TOKENMATCHES[cdl] 'x y'", "title TOKENMATCHES 'x'",
        "distanceToLocation:fromLocation:(place, LOCATION(48.85, 2.35)) < 5",
        "a == TIMESTAMP(1795300000000)", "a == REFERENCE('_u1')", "a == BYTES('AQID')",
        "#in == 1", "a.b.c == 1", "recordID == 'x'", "___createTime > 0",
        "a == 0.1", "a == 1e-7", "a == -0.0", "a == 123456789012345.0", "a == {}",
        "x == 1\n AND\ty == 2",
    ]

    @Test("parse(render(tree)) == tree and rendering is a fixed point", arguments: corpus)
    func roundTrip(format: String) throws {
        let p = try Fixtures.predicate(format)
        let rendered = p.canonicalFormat
        let again = try RecordPredicate(format: rendered)
        #expect(again == p, "\(format) → \(rendered)")
        #expect(again.canonicalFormat == rendered)
    }

    @Test("substituted arguments of every type round-trip", arguments: [
        PredicateArgument.null, .bool(false), .int(-3), .double(0.25), .string("it's \"x\""), .timestamp(5),
        .reference("_u1"), .location(latitude: -33.9, longitude: 151.2), .value(.bytes(Data([0, 255]))),
        .value(.list([.string("a"), .string("b")], of: .string)), .list([.int(1), .null]),
    ])
    func arguments(argument: PredicateArgument) throws {
        let p = try Fixtures.predicate("x == %@", [argument])
        #expect(try RecordPredicate(format: p.canonicalFormat) == p)
    }

    @Test("canonical text", arguments: [
        ("a = 1 && b =< 2", "a == 1 AND b <= 2"),
        ("5 < a", "a > 5"),
        ("!a == 1", "NOT (a == 1)"),
        ("a == 1 || b == 2 && c == 3", "a == 1 OR (b == 2 AND c == 3)"),
        ("some tags beginswith[c] \"x\"", "ANY tags BEGINSWITH[c] 'x'"),
        ("self contains 'The Cafe, bread'", "SELF CONTAINS 'cafe bread'"),
        ("allTokens tokenmatches[cdl] 'x'", "SELF CONTAINS 'x'"),
        ("a == 2.0", "a == 2.0"),
        ("#AND == 1", "#AND == 1"),
        ("distanceToLocation:fromLocation:(p, %@) < 1", "distanceToLocation:fromLocation:(p, LOCATION(1.0, 2.0)) < 1"),
    ])
    func canonical(format: String, expected: String) throws {
        let args: [PredicateArgument] = format.contains("%@") ? [.location(latitude: 1, longitude: 2)] : []
        #expect(try Fixtures.predicate(format, args).canonicalFormat == expected)
    }
}
