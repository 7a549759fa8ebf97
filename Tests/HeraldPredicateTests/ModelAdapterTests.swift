import Foundation
import HeraldModel
import Testing
@testable import HeraldPredicate

@Suite("Adapters from HeraldModel's subscription types")
struct ModelAdapterTests {
    @Test("JSONValue arguments")
    func jsonValues() throws {
        let values: [JSONValue] = [3, 2.5, "a", true, nil, [1, "x"],
                                   ["value": 1_795_300_000_000, "type": "TIMESTAMP"], ["recordName": "_u1"]]
        #expect(try PredicateArgument.list(values) == [
            .int(3), .double(2.5), .string("a"), .bool(true), .null, .list([.int(1), .string("x")]),
            .timestamp(1_795_300_000_000), .reference("_u1"),
        ])
        #expect(throws: RecordPredicateError.self) { try PredicateArgument.list([1, ["nope": 1]]) }
    }

    @Test("a query subscription with a format string, a filterBy list, or neither")
    func query() throws {
        let format = SubscriptionQuery(recordType: "Note", predicate: "priority >= %@ AND tags CONTAINS 'urgent'", arguments: [3])
        let list = SubscriptionQuery(recordType: "Note", filterBy: [
            QueryFilter(comparator: .greaterThanOrEquals, fieldName: "priority", fieldValue: .int64(3)),
            QueryFilter(comparator: .listContains, fieldName: "tags", fieldValue: .string("urgent")),
        ])
        let a = try RecordPredicate(query: format)
        let b = try RecordPredicate(query: list)
        #expect(a == b)
        #expect(a.evaluate(Fixtures.note))
        #expect(try RecordPredicate(query: SubscriptionQuery(recordType: "Note")).root == .constant(true))
    }

    @Test("every model comparator maps onto a clause comparator")
    func comparators() {
        for c in FilterComparator.allCases {
            #expect(FilterClause.Comparator(rawValue: c.rawValue) != nil, "\(c)")
        }
    }
}
