import Foundation
import HeraldModel
import Testing
@testable import HeraldPredicate

@Suite("Substitution of %@, %K and %n$@ at the syntax-tree level")
struct SubstitutionTests {
    @Test("%@ substitutes values in order")
    func sequential() throws {
        let p = try Fixtures.predicate("priority >= %@ AND title BEGINSWITH %@", [.int(3), .string("Gro")])
        #expect(p == (try Fixtures.predicate("priority >= 3 AND title BEGINSWITH 'Gro'")))
    }

    @Test("%K substitutes key names")
    func keys() throws {
        let p = try Fixtures.predicate("%K == %@", [.string("priority"), .int(5)])
        #expect(p == (try Fixtures.predicate("priority == 5")))
        #expect(try Fixtures.matches("%K == %@", [.string("priority"), .int(5)]))
    }

    @Test("%n$@ picks arguments by position and may repeat")
    func positional() throws {
        let p = try Fixtures.predicate("%2$K == %1$@ OR %2$K == %3$@", [.int(1), .string("priority"), .int(5)])
        #expect(p == (try Fixtures.predicate("priority == 1 OR priority == 5")))
    }

    @Test("a hostile string stays one literal", arguments: [
        "x' OR TRUEPREDICATE",
        "' OR TRUEPREDICATE OR title == '",
        "\" OR 1 == 1 OR \"",
        "%@",
        "a\\') OR (TRUEPREDICATE",
    ])
    func injection(hostile: String) throws {
        let p = try Fixtures.predicate("title == %@", [.string(hostile)])
        #expect(p.root == .comparison(Comparison(.key(PredicateKey("title")), .equal, .constant(.string(hostile)))))
        #expect(!p.compile().evaluate(Fixtures.note))
        // Rendering quotes it, and the rendering parses back to the same single comparison.
        #expect(try RecordPredicate(format: p.canonicalFormat) == p)
    }

    @Test("%K refuses anything that is not a key name", arguments: [
        "title == 'x' OR TRUEPREDICATE", "a b", "", "1abc", "a..b", "a-b",
    ])
    func hostileKey(name: String) {
        #expect {
            _ = try RecordPredicate(format: "%K == 1", arguments: [.string(name)])
        } throws: { ($0 as? RecordPredicateError)?.code == .invalidKey }
    }

    @Test("%K may name a key path; %@ inside a string literal is text")
    func keyPathAndQuotedMarker() throws {
        let p = try Fixtures.predicate("%K == 1", [.string("owner.name")])
        #expect(p == (try Fixtures.predicate("owner.name == 1")))
        let quoted = try Fixtures.predicate("title == '%@ and %K'")
        #expect(quoted.root == .comparison(Comparison(.key(PredicateKey("title")), .equal, .constant(.string("%@ and %K")))))
    }

    @Test("a NULL argument tests absence")
    func nullArgument() throws {
        #expect(try Fixtures.matches("missing == %@", [.null]))
        #expect(try !Fixtures.matches("priority == %@", [.null]))
    }

    @Test("%K needs a string argument")
    func keyNeedsString() {
        #expect {
            _ = try RecordPredicate(format: "%K == 1", arguments: [.int(3)])
        } throws: { ($0 as? RecordPredicateError)?.code == .invalidArgument }
    }

    @Test("typed arguments", arguments: [
        (PredicateArgument.null, PredicateValue.null),
        (.bool(true), .bool(true)),
        (.double(2.5), .double(2.5)),
        (.timestamp(7), .timestamp(7)),
        (.date(Date(timeIntervalSince1970: 1.5)), .timestamp(1500)),
        (.reference("_u1"), .reference("_u1")),
        (.location(latitude: 1, longitude: 2), .location(latitude: 1, longitude: 2)),
        (.value(.asset(AssetReference(fileChecksum: "abc", size: 1))), .string("abc")),
        (.value(.list([.int64(1), .int64(2)], of: .int64)), .list([.int(1), .int(2)])),
        (.list([.int(1), .string("a")]), .list([.int(1), .string("a")])),
    ])
    func typed(argument: PredicateArgument, value: PredicateValue) throws {
        let p = try Fixtures.predicate("x == %@", [argument])
        guard case .comparison(let c) = p.root else {
            Issue.record("not a comparison")
            return
        }
        #expect(c.right == .constant(value))
    }

    @Test("arguments inside arrays, BETWEEN and functions")
    func nested() throws {
        #expect(try Fixtures.predicate("x IN {%@, %@}", [.int(1), .int(2)]) == Fixtures.predicate("x IN {1, 2}"))
        #expect(try Fixtures.predicate("x BETWEEN %@", [.list([.int(1), .int(9)])]) == Fixtures.predicate("x BETWEEN {1, 9}"))
        #expect(try Fixtures.predicate("distanceToLocation:fromLocation:(place, %@) < %@", [.location(latitude: 48.85, longitude: 2.35), .int(5)])
            == Fixtures.predicate("distanceToLocation:fromLocation:(place, LOCATION(48.85, 2.35)) < 5"))
        #expect(try Fixtures.predicate("x == LOCATION(%@, %@)", [.double(1), .double(2)]) == Fixtures.predicate("x == LOCATION(1.0, 2.0)"))
    }

    @Test("numeric specifiers behave like %@")
    func numericSpecifiers() throws {
        #expect(try Fixtures.predicate("a == %d AND b == %f AND c == %ld", [.int(1), .double(2), .int(3)])
            == Fixtures.predicate("a == 1 AND b == 2.0 AND c == 3"))
    }
}
