import HeraldModel
import Testing
@testable import HeraldPredicate

/// Decision: a comparison on a missing field is false, whatever the operator (never an
/// error); NOT is plain negation (NSPredicate: `NOT (x == 1)` is true when x is nil);
/// `x == NULL` tests absence.
@Suite("Missing fields")
struct MissingFieldTests {
    @Test("every comparison on a missing field is false", arguments: [
        "missing == 1", "missing != 1", "missing < 1", "missing > 1", "missing BETWEEN {0, 9}",
        "missing BEGINSWITH 'a'", "missing ENDSWITH 'a'", "missing CONTAINS 'a'", "missing LIKE '*'",
        "missing IN {1, 2}", "'a' IN missing", "ANY missing == 1", "ALL missing == 1", "NONE missing == 1",
        "missing TOKENMATCHES 'a'", "distanceToLocation:fromLocation:(missing, LOCATION(0, 0)) < 100000",
        "missing == other", "priority == missing", "a.b == 1", "missing != NULL",
        "creationDate > 0",
    ])
    func comparisonIsFalse(format: String) throws {
        #expect(try !Fixtures.matches(format, record: bare))
    }

    @Test("NOT of a missing-field comparison is true", arguments: [
        "NOT missing == 1", "NOT missing != 1", "NOT missing CONTAINS 'a'", "NOT (ANY missing == 1)",
    ])
    func notIsNegation(format: String) throws {
        #expect(try Fixtures.matches(format, record: bare))
    }

    @Test("== NULL tests absence")
    func nullTests() throws {
        #expect(try Fixtures.matches("missing == NULL", record: bare))
        #expect(try Fixtures.matches("missing == nil", record: bare))
        #expect(try !Fixtures.matches("priority == NULL", record: bare))
        #expect(try Fixtures.matches("priority != NULL", record: bare))
        #expect(try Fixtures.matches("modifiedBy == NULL", record: bare))
    }

    /// Only `priority`; no metadata besides the record name.
    let bare = PredicateRecord(recordName: "r", fields: ["priority": .int64(1)])
}
