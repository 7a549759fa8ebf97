import Foundation
import HeraldModel
import Testing
@testable import HeraldPredicate

@Suite("Parser: operators, literals and normalization")
struct ParserTests {
    @Test("equivalent spellings give equal trees", arguments: [
        ("a = 1", "a == 1"),
        ("a <> 1", "a != 1"),
        ("a =< 1", "a <= 1"),
        ("a => 1", "a >= 1"),
        ("a == 1 && b == 2", "a == 1 AND b == 2"),
        ("a == 1 || b == 2", "a == 1 OR b == 2"),
        ("!(a == 1)", "NOT a == 1"),
        ("SOME tags == 'x'", "ANY tags == 'x'"),
        ("any tags == 'x'", "ANY tags == 'x'"),
        ("a beginswith 'x'", "a BEGINSWITH 'x'"),
        ("5 < a", "a > 5"),
        ("5 >= a", "a <= 5"),
        ("'x' IN tags", "tags CONTAINS 'x'"),
        ("{1, 2} CONTAINS a", "a IN {1, 2}"),
        ("a == 1 AND (b == 2 AND c == 3)", "(a == 1 AND b == 2) AND c == 3"),
        ("a == 1 OR (b == 2 OR c == 3)", "a == 1 OR b == 2 OR c == 3"),
        ("self contains 'Bob  SMITH'", "allTokens TOKENMATCHES[cdl] 'bob smith'"),
        ("truepredicate", "TRUEPREDICATE"),
        ("a == yes", "a == TRUE"),
        ("a == nil", "a == NULL"),
        ("a == 0x10", "a == 16"),
        ("a == 0o17", "a == 15"),
        ("a == 0b101", "a == 5"),
        ("a == -0x10", "a == -16"),
        ("a == 1.5e3", "a == 1500.0"),
        ("a == 'it\\'s'", "a == \"it's\""),
        ("recordID == 'x'", "recordName == 'x'"),
        ("#in == 1", "#in = 1"),
        ("a\u{0B}==\u{0C}1\r\n", "a == 1"),
        ("a\u{00A0}==\u{3000}1\u{2028}", "a == 1"),
    ])
    func equivalentSpellings(a: String, b: String) throws {
        #expect(try Fixtures.predicate(a) == Fixtures.predicate(b))
    }

    @Test("operators parse to the expected comparison", arguments: [
        ("x == 1", Comparison.Operator.equal),
        ("x != 1", .notEqual),
        ("x < 1", .less),
        ("x <= 1", .lessOrEqual),
        ("x > 1", .greater),
        ("x >= 1", .greaterOrEqual),
        ("x BETWEEN {1, 2}", .between),
        ("x BEGINSWITH 'a'", .beginsWith),
        ("x ENDSWITH 'a'", .endsWith),
        ("x CONTAINS 'a'", .contains),
        ("x LIKE 'a*'", .like),
        ("x IN {1}", .in),
    ])
    func operators(format: String, op: Comparison.Operator) throws {
        let p = try Fixtures.predicate(format)
        guard case .comparison(let c) = p.root else {
            Issue.record("not a comparison: \(p)")
            return
        }
        #expect(c.op == op)
        #expect(c.left == .key(PredicateKey("x")))
    }

    @Test("literals", arguments: [
        ("x == 'a\\nb\\t\\u00e9'", PredicateValue.string("a\nb\té")),
        ("x == \"dq\"", .string("dq")),
        ("x == 42", .int(42)),
        ("x == -42", .int(-42)),
        ("x == 4.25", .double(4.25)),
        ("x == -1e-3", .double(-0.001)),
        ("x == .5", .double(0.5)),
        ("x == 9223372036854775807", .int(.max)),
        ("x == 9223372036854775808", .double(9223372036854775808)),
        ("x == TRUE", .bool(true)),
        ("x == no", .bool(false)),
        ("x == NULL", .null),
        ("x == {}", .list([])),
        ("x == {1, 'a', {2}}", .list([.int(1), .string("a"), .list([.int(2)])])),
        ("x == TIMESTAMP(1795300000000)", .timestamp(1_795_300_000_000)),
        ("x == REFERENCE('_u1')", .reference("_u1")),
        ("x == LOCATION(48.5, -2)", .location(latitude: 48.5, longitude: -2)),
        ("x == BYTES('AQID')", .bytes(Data([1, 2, 3]))),
    ])
    func literals(format: String, value: PredicateValue) throws {
        let p = try Fixtures.predicate(format)
        guard case .comparison(let c) = p.root else {
            Issue.record("not a comparison")
            return
        }
        #expect(c.right == .constant(value))
    }

    @Test("modifiers and options")
    func modifiersAndOptions() throws {
        let p = try Fixtures.predicate("ALL tags BEGINSWITH[cd] 'a'")
        guard case .comparison(let c) = p.root else {
            Issue.record("not a comparison")
            return
        }
        #expect(c.modifier == .all)
        #expect(c.options == [.caseInsensitive, .diacriticInsensitive])
        #expect(c.optionsAnchor.position.column == 20)
    }

    @Test("precedence: NOT binds tighter than AND, AND tighter than OR")
    func precedence() throws {
        let p = try Fixtures.predicate("NOT a == 1 AND b == 2 OR c == 3")
        guard case .or(let alternatives, _) = p.root, alternatives.count == 2,
              case .and(let conjuncts) = alternatives[0], conjuncts.count == 2,
              case .not = conjuncts[0] else {
            Issue.record("wrong shape: \(p)")
            return
        }
    }

    @Test("distance and token searches")
    func specialForms() throws {
        let d = try Fixtures.predicate("distanceToLocation:fromLocation:(place, LOCATION(48.0, 2.0)) < 5")
        guard case .comparison(let c) = d.root, case .distance(let key, 48.0, 2.0) = c.left else {
            Issue.record("not a distance: \(d)")
            return
        }
        #expect(key.name == "place")
        let swapped = try Fixtures.predicate("5 > distanceToLocation:fromLocation:(LOCATION(48.0, 2.0), place)")
        #expect(swapped == d)

        let t = try Fixtures.predicate("allTokens TOKENMATCHES[cdl] 'The Café, and BREAD'")
        #expect(t.root == .tokens(TokenSearch(text: "cafe bread")))
        let field = try Fixtures.predicate("title TOKENMATCHES 'milk'")
        #expect(field.root == .tokens(TokenSearch(text: "milk", field: PredicateKey("title"))))
    }

    @Test("multi-line text")
    func multiLine() throws {
        let p = try Fixtures.predicate("a == 1\n  AND\n  b == 'x'")
        guard case .and(let children) = p.root, case .comparison(let c) = children[1] else {
            Issue.record("wrong shape")
            return
        }
        #expect(c.anchor.position.line == 3)
        #expect(c.anchor.position.column == 3)
    }
}
