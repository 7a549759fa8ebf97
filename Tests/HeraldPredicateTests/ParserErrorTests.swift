import Testing
@testable import HeraldPredicate

@Suite("Parser errors carry code, line and column")
struct ParserErrorTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var format: String
        var code: RecordPredicateError.Code
        var line: Int
        var column: Int
        var text: String?
        var testDescription: String { format.debugDescription }
    }

    @Test("bad inputs", arguments: [
        Case(format: "", code: .unexpectedEnd, line: 1, column: 1),
        Case(format: "a ==", code: .unexpectedEnd, line: 1, column: 5),
        Case(format: "a == 'abc", code: .unterminatedString, line: 1, column: 6, text: "'abc"),
        Case(format: "a == 'a\\qb'", code: .invalidEscape, line: 1, column: 8, text: "\\q"),
        Case(format: "a == '\\u12'", code: .invalidEscape, line: 1, column: 7),
        Case(format: "a == 0x", code: .invalidNumber, line: 1, column: 6),
        Case(format: "a == 0xFFFFFFFFFFFFFFFFFF", code: .invalidNumber, line: 1, column: 6),
        Case(format: "a == 1e", code: .invalidNumber, line: 1, column: 6),
        Case(format: "a == 1e999", code: .invalidNumber, line: 1, column: 6),
        Case(format: "a == 12abc", code: .invalidNumber, line: 1, column: 6),
        Case(format: "a == 1\nAND b ~ 2", code: .unexpectedCharacter, line: 2, column: 7, text: "~"),
        Case(format: "a == 1 b == 2", code: .unexpectedToken, line: 1, column: 8, text: "b"),
        Case(format: "a 1", code: .unexpectedToken, line: 1, column: 3, text: "1"),
        Case(format: "a:b == 1", code: .invalidKey, line: 1, column: 1, text: "a:b"),
        Case(format: "a.b:c == 1", code: .unexpectedToken, line: 1, column: 3, text: "b:c"),
        Case(format: "(a == 1", code: .unexpectedEnd, line: 1, column: 8),
        Case(format: "a == 1)", code: .unexpectedToken, line: 1, column: 7, text: ")"),
        Case(format: "a MATCHES 'x.*'", code: .unsupportedSyntax, line: 1, column: 3, text: "MATCHES"),
        Case(format: "SUBQUERY(tags, $t, $t == 'a') == 1", code: .unsupportedSyntax, line: 1, column: 1),
        Case(format: "a + 1 == 2", code: .unsupportedSyntax, line: 1, column: 3),
        Case(format: "a == nosuch(1)", code: .unsupportedSyntax, line: 1, column: 6, text: "nosuch"),
        Case(format: "a BETWEEN {1}", code: .invalidOperand, line: 1, column: 11),
        Case(format: "a BETWEEN 3", code: .invalidOperand, line: 1, column: 11),
        Case(format: "a IN 3", code: .invalidOperand, line: 1, column: 6),
        Case(format: "a ==[x] 'b'", code: .unexpectedToken, line: 1, column: 6),
        Case(format: "a == {b}", code: .invalidOperand, line: 1, column: 7),
        Case(format: "a == %@", code: .missingArgument, line: 1, column: 6, text: "%@"),
        Case(format: "a == %2$@", code: .missingArgument, line: 1, column: 6, text: "%2$@"),
        Case(format: "a == %0$@", code: .unexpectedCharacter, line: 1, column: 6),
        Case(format: "a == %q", code: .unexpectedCharacter, line: 1, column: 6),
        Case(format: "AND == 1", code: .unexpectedToken, line: 1, column: 1, text: "AND"),
        Case(format: "SELF == 1", code: .invalidOperand, line: 1, column: 1, text: "SELF"),
        Case(format: "SELF CONTAINS 3", code: .invalidOperand, line: 1, column: 15),
        Case(format: "ANY 3 == a", code: .invalidOperand, line: 1, column: 5),
        Case(format: "distanceToLocation:fromLocation:(place, 3) < 1", code: .invalidOperand, line: 1, column: 1),
        Case(format: "distanceToLocation:fromLocation:(place, LOCATION(1, 2)) < 'x'", code: .invalidOperand, line: 1, column: 59),
        Case(format: "x == LOCATION('a', 2)", code: .invalidOperand, line: 1, column: 6),
        Case(format: "x == TIMESTAMP('now')", code: .invalidOperand, line: 1, column: 6),
        Case(format: "a.b. == 1", code: .unexpectedToken, line: 1, column: 6),
        Case(format: "# == 1", code: .unexpectedCharacter, line: 1, column: 1),
        Case(format: "x == 'é' AND\n\n   y ==", code: .unexpectedEnd, line: 3, column: 8),
    ])
    func badInput(_ c: Case) {
        #expect {
            _ = try RecordPredicate(format: c.format)
        } throws: { error in
            guard let e = error as? RecordPredicateError else { return false }
            let ok = e.code == c.code && e.position.line == c.line && e.position.column == c.column
                && (c.text == nil || e.text == c.text)
            if !ok { Issue.record("got \(e.code) \(e)") }
            return ok
        }
    }

    @Test("nesting is limited, not a stack overflow")
    func deepNesting() {
        let deep = String(repeating: "(", count: 10_000) + "a == 1" + String(repeating: ")", count: 10_000)
        #expect(throws: RecordPredicateError.self) { try RecordPredicate(format: deep) }
        let nots = String(repeating: "NOT ", count: 10_000) + "a == 1"
        #expect(throws: RecordPredicateError.self) { try RecordPredicate(format: nots) }
        let arrays = "a IN " + String(repeating: "{", count: 10_000)
        #expect(throws: RecordPredicateError.self) { try RecordPredicate(format: arrays) }
    }

    @Test("length is limited")
    func tooLong() throws {
        let long = (0..<20_000).map { "a\($0) == 1" }.joined(separator: " AND ")
        #expect { try RecordPredicate(format: long) } throws: { ($0 as? RecordPredicateError)?.code == .tooLong }
        let fine = (0..<2_000).map { "a\($0) == 1" }.joined(separator: " AND ")
        #expect(try RecordPredicate(format: fine).conjuncts.count == 2_000)
    }

    @Test("a reasonable depth is fine")
    func reasonableNesting() throws {
        let p = String(repeating: "(", count: 50) + "a == 1" + String(repeating: ")", count: 50)
        _ = try RecordPredicate(format: p)
    }
}
