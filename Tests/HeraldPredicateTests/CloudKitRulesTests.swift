import HeraldModel
import Testing
@testable import HeraldPredicate

@Suite("CloudKit rule check")
struct CloudKitRulesTests {
    static let schema: [String: FieldType] = [
        "title": .string, "tags": .stringList, "priority": .int64, "place": .location,
    ]

    struct Case: Sendable, CustomTestStringConvertible {
        var format: String
        var codes: [PredicateDiagnostic.Code]
        var column: Int?
        init(_ format: String, _ codes: [PredicateDiagnostic.Code], column: Int? = nil) {
            self.format = format
            self.codes = codes
            self.column = column
        }
        var testDescription: String { format }
    }

    @Test("what CloudKit refuses", arguments: [
        Case("priority == 1 OR priority == 2", [.or], column: 15),
        Case("priority == 1 || priority == 2", [.or], column: 15),
        Case("ALL tags == 'a'", [.all], column: 1),
        Case("NONE tags == 'a'", [.none], column: 1),
        Case("title ENDSWITH 'a'", [.endsWith], column: 7),
        Case("title LIKE 'a*'", [.like], column: 7),
        Case("owner.name == 'a'", [.keyPath], column: 1),
        Case("_private == 1", [.invalidKeyName], column: 1),
        Case("$x == 1", [.invalidKeyName], column: 1),
        Case("NOT (priority == 1 AND priority == 2)", [.notOverAnd], column: 1),
        Case("NOT SELF CONTAINS 'a'", [.notOverTokenSearch], column: 1),
        Case("NOT distanceToLocation:fromLocation:(place, LOCATION(1, 2)) < 5", [.notOverDistance], column: 1),
        Case("NOT priority BETWEEN {1, 2}", [.notOverBetween], column: 1),
        Case("title CONTAINS 'abc'", [.substringContains], column: 7),
        Case("recordName CONTAINS 'abc'", [.substringContains], column: 12),
        Case("title IN 'abc'", [.substringContains], column: 7),
        Case("title ==[c] 'abc'", [.stringOptions], column: 9),
        Case("title BEGINSWITH[cd] 'abc'", [.stringOptions], column: 17),
        Case("priority == other", [.nonConstantOperand], column: 13),
        Case("distanceToLocation:fromLocation:(place, LOCATION(1, 2)) > 5", [.distanceNotInsideRadius], column: 57),
        Case("title == NULL", [.nullComparison], column: 7),
        Case("title ENDSWITH[c] 'x' OR ALL tags == 'a'", [.endsWith, .stringOptions, .or, .all]),
        Case("priority BEGINSWITH 'a'", [.typeMismatch], column: 10),
        Case("ANY title == 'a'", [.typeMismatch], column: 1),
        Case("distanceToLocation:fromLocation:(title, LOCATION(1, 2)) < 5", [.typeMismatch], column: 34),
        Case("priority == 'high'", [.typeMismatch], column: 10),
        Case("title == 5", [.typeMismatch], column: 7),
        Case("priority IN {1, 'two'}", [.typeMismatch], column: 10),
        Case("creationDate > 'yesterday'", [.typeMismatch], column: 14),
        Case("createdBy == 3", [.typeMismatch], column: 11),
        Case("tags CONTAINS 3", [.typeMismatch], column: 6),
    ])
    func refused(_ c: Case) throws {
        let diagnostics = try Fixtures.predicate(c.format).cloudKitDiagnostics(schema: Self.schema)
        #expect(diagnostics.map(\.code) == c.codes, "\(diagnostics)")
        if let column = c.column {
            #expect(diagnostics.first?.position.column == column)
        }
    }

    @Test("what CloudKit accepts", arguments: [
        "priority == 1", "priority = 1", "priority != 1", "priority <> 1", "priority < 1", "priority =< 1",
        "priority BETWEEN {1, 2}", "TRUEPREDICATE", "FALSEPREDICATE",
        "priority == 1 AND title BEGINSWITH 'a'", "priority == 1 && NOT title == 'b'",
        "tags CONTAINS 'a'", "'a' IN tags", "ANY tags == 'a'", "SOME tags BEGINSWITH 'a'", "title IN {'a', 'b'}",
        "SELF CONTAINS 'a b'", "allTokens TOKENMATCHES[cdl] 'a b'",
        "distanceToLocation:fromLocation:(place, %@) < 5",
        "recordName == 'a'", "creationDate > %@", "modificationDate < %@", "createdBy == %@", "modifiedBy == %@",
        "%K == 1",
    ])
    func accepted(format: String) throws {
        let arguments: [PredicateArgument] = format.contains("%K") ? [.string("priority")]
            : format.contains("distance") ? [.location(latitude: 1, longitude: 2)]
            : format.contains("%@") ? [.timestamp(1)] : []
        let p = try Fixtures.predicate(format, arguments)
        #expect(p.cloudKitDiagnostics(schema: Self.schema).isEmpty)
        #expect(p.cloudKitDiagnostics().isEmpty)
    }

    @Test("compatible types are not flagged", arguments: [
        "priority == 5.5", "priority == TRUE", "creationDate > 1795300000000", "createdBy == '_u1'",
        "createdBy == REFERENCE('_u1')", "ANY tags BEGINSWITH 'a'", "tags CONTAINS 'a'", "unknown == 'x'",
        "recordName BEGINSWITH 'n'", "priority IN {1, 2.5}",
    ])
    func compatible(format: String) throws {
        #expect(try Fixtures.predicate(format).cloudKitDiagnostics(schema: Self.schema).isEmpty)
    }

    @Test("without a schema a CONTAINS on an unknown field is not flagged")
    func noSchema() throws {
        #expect(try Fixtures.predicate("title CONTAINS 'abc'").cloudKitDiagnostics().isEmpty)
    }

    @Test("strict parsing throws the first violation with its position")
    func strict() {
        #expect {
            _ = try RecordPredicate(format: "priority == 1 OR title ENDSWITH 'x'", cloudKitRules: true)
        } throws: { error in
            guard let e = error as? RecordPredicateError else { return false }
            return e.code == .cloudKitRule && e.position.column == 15 && e.text == "OR"
        }
    }

    @Test("CloudKit key names", arguments: [
        ("a", true), ("aB_9", true), ("A", true), ("_a", false), ("9a", false), ("a-b", false), ("é", false), ("", false),
    ])
    func keyNames(name: String, valid: Bool) {
        #expect(CloudKitRules.isValidKeyName(name) == valid)
    }
}
