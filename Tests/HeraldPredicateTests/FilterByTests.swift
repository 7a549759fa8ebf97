import Foundation
import HeraldModel
import HeraldTestSupport
import Testing
@testable import HeraldPredicate

@Suite("filterBy list form compiles to the same tree")
struct FilterByTests {
    typealias C = FilterClause.Comparator

    @Test("each comparator equals its format-string spelling", arguments: [
        (C.equals, "priority", FieldValue.int64(5), nil as Double?, "priority == 5"),
        (.notEquals, "priority", .int64(5), nil, "priority != 5"),
        (.lessThan, "priority", .int64(5), nil, "priority < 5"),
        (.lessThanOrEquals, "priority", .int64(5), nil, "priority <= 5"),
        (.greaterThan, "due", .timestamp(7), nil, "due > TIMESTAMP(7)"),
        (.greaterThanOrEquals, "___createTime", .timestamp(7), nil, "creationDate >= TIMESTAMP(7)"),
        (.near, "place", .location(Location(latitude: 1, longitude: 2)), 1500, "distanceToLocation:fromLocation:(place, LOCATION(1, 2)) < 1.5"),
        (.containsAnyTokens, "allTokens", .string("milk bread"), nil, "SELF CONTAINS 'milk bread'"),
        (.containsAllTokens, "___all", .string("milk bread"), nil, "SELF CONTAINS 'milk' AND SELF CONTAINS 'bread'"),
        (.containsAnyTokens, "body", .string("milk"), nil, "body TOKENMATCHES 'milk'"),
        (.in, "priority", .list([.int64(1), .int64(5)], of: .int64), nil, "priority IN {1, 5}"),
        (.notIn, "priority", .list([.int64(1)], of: .int64), nil, "NOT priority IN {1}"),
        (.listContains, "tags", .string("urgent"), nil, "tags CONTAINS 'urgent'"),
        (.notListContains, "tags", .string("urgent"), nil, "NOT tags CONTAINS 'urgent'"),
        (.listContainsAny, "tags", .list([.string("a"), .string("home")], of: .string), nil, "ANY tags IN {'a', 'home'}"),
        (.listContainsAll, "tags", .list([.string("urgent"), .string("home")], of: .string), nil, "tags CONTAINS 'urgent' AND tags CONTAINS 'home'"),
        (.notListContainsAny, "tags", .list([.string("a"), .string("home")], of: .string), nil, "NOT ANY tags IN {'a', 'home'}"),
        (.notListContainsAny, "tags", .list([.string("a"), .string("b")], of: .string), nil, "NOT ANY tags IN {'a', 'b'}"),
        (.notListContainsAll, "tags", .list([.string("urgent"), .string("home")], of: .string), nil, "NOT (tags CONTAINS 'urgent' AND tags CONTAINS 'home')"),
        (.notListContainsAll, "tags", .list([.string("urgent"), .string("x")], of: .string), nil, "NOT (tags CONTAINS 'urgent' AND tags CONTAINS 'x')"),
        (.notListContainsAll, "tags", .list([.string("urgent")], of: .string), nil, "NOT tags CONTAINS 'urgent'"),
        (.beginsWith, "title", .string("Gro"), nil, "title BEGINSWITH 'Gro'"),
        (.notBeginsWith, "title", .string("Gro"), nil, "NOT title BEGINSWITH 'Gro'"),
        (.listMemberBeginsWith, "tags", .string("ur"), nil, "ANY tags BEGINSWITH 'ur'"),
        (.notListMemberBeginsWith, "tags", .string("ur"), nil, "NOT ANY tags BEGINSWITH 'ur'"),
        (.equals, "owner", .reference(RecordReference(recordName: "_u1")), nil, "owner == REFERENCE('_u1')"),
    ])
    func comparator(comparator: C, field: String, value: FieldValue, distance: Double?, format: String) throws {
        let clause = FilterClause(comparator: comparator, fieldName: field, fieldValue: value, distance: distance)
        let fromList = try RecordPredicate(filterBy: [clause])
        #expect(fromList == (try Fixtures.predicate(format)))
        #expect(fromList.evaluate(Fixtures.note) == (try Fixtures.matches(format)))
    }

    @Test("entries are ANDed; an empty list matches everything")
    func anded() throws {
        let p = try RecordPredicate(filterBy: [
            FilterClause(comparator: .greaterThanOrEquals, fieldName: "priority", fieldValue: .int64(3)),
            FilterClause(comparator: .listContains, fieldName: "tags", fieldValue: .string("urgent")),
        ])
        #expect(p == (try Fixtures.predicate("priority >= 3 AND tags CONTAINS 'urgent'")))
        #expect(p.evaluate(Fixtures.note))
        #expect(try RecordPredicate(filterBy: []).root == .constant(true))
    }

    @Test("bad clauses report their clause number", arguments: [
        (FilterClause(comparator: .in, fieldName: "priority", fieldValue: .int64(1)), "fieldValue must be a list"),
        (FilterClause(comparator: .near, fieldName: "place", fieldValue: .int64(1), distance: 5), "LOCATION"),
        (FilterClause(comparator: .near, fieldName: "place", fieldValue: .location(Location(latitude: 0, longitude: 0))), "distance"),
        (FilterClause(comparator: .beginsWith, fieldName: "title", fieldValue: .int64(1)), "STRING"),
        (FilterClause(comparator: .equals, fieldName: "a b", fieldValue: .int64(1)), "valid field name"),
    ])
    func badClause(clause: FilterClause, reason: String) {
        let ok = FilterClause(comparator: .equals, fieldName: "x", fieldValue: .int64(1))
        #expect {
            _ = try RecordPredicate(filterBy: [ok, clause])
        } throws: { error in
            guard let e = error as? RecordPredicateError else { return false }
            return e.code == .invalidFilter && e.position.line == 2 && e.reason.contains(reason)
        }
    }

    @Test("what filterBy builds is within CloudKit's rules")
    func cloudKitValid() throws {
        let schema: [String: FieldType] = ["tags": .stringList, "title": .string, "priority": .int64, "place": .location]
        let values: [FilterClause.Comparator: (String, FieldValue)] = [
            .near: ("place", .location(Location(latitude: 1, longitude: 2))),
            .in: ("priority", .list([.int64(1)], of: .int64)), .notIn: ("priority", .list([.int64(1)], of: .int64)),
            .listContainsAny: ("tags", .list([.string("a")], of: .string)),
            .listContainsAll: ("tags", .list([.string("a"), .string("b")], of: .string)),
            .notListContainsAny: ("tags", .list([.string("a"), .string("b")], of: .string)),
            .notListContainsAll: ("tags", .list([.string("a"), .string("b")], of: .string)),
            .listContains: ("tags", .string("a")), .notListContains: ("tags", .string("a")),
            .listMemberBeginsWith: ("tags", .string("a")), .notListMemberBeginsWith: ("tags", .string("a")),
            .containsAllTokens: ("allTokens", .string("a b")), .containsAnyTokens: ("allTokens", .string("a b")),
        ]
        for comparator in C.allCases {
            let (field, value) = values[comparator] ?? ("title", .string("x"))
            let clause = FilterClause(comparator: comparator, fieldName: field, fieldValue: value, distance: 10)
            let p = try RecordPredicate(filterBy: [clause], cloudKitRules: true, schema: schema)
            #expect(try RecordPredicate(format: p.canonicalFormat) == p)
        }
    }

    @Test("random clauses never crash", .timeLimit(.minutes(5)))
    func randomClauses() {
        var rng = SeededGenerator(seed: 7)
        let values: [FieldValue] = [
            .string("milk the bread"), .string(""), .int64(-1), .double(.nan), .double(.infinity), .timestamp(0),
            .bytes(Data()), .reference(RecordReference(recordName: "r")), .location(Location(latitude: 91, longitude: 540)),
            .asset(AssetReference(fileChecksum: "c", size: 0)), .list([], of: .string),
            .list([.string("a"), .int64(2)], of: .string),
        ]
        let names = ["title", "tags", "", "a b", "___all", "recordName", "a.b", "#x", "allTokens", "place"]
        for _ in 0..<2000 {
            let clauses = (0..<Int.random(in: 0...3, using: &rng)).map { _ in
                FilterClause(
                    comparator: C.allCases.randomElement(using: &rng)!, fieldName: names.randomElement(using: &rng)!,
                    fieldValue: values.randomElement(using: &rng)!,
                    distance: [nil, -1, 0, 1000, .nan].randomElement(using: &rng)!)
            }
            guard let p = try? RecordPredicate(filterBy: clauses) else { continue }
            _ = p.compile().evaluate(Fixtures.note)
            _ = p.cloudKitDiagnostics()
            _ = p.conjuncts
            _ = p.canonicalFormat
        }
    }

    @Test("comparator names")
    func names() throws {
        #expect(try FilterClause(comparator: "LIST_CONTAINS_ANY", fieldName: "t", fieldValue: .string("a")).comparator == .listContainsAny)
        #expect(throws: RecordPredicateError.self) {
            try FilterClause(comparator: "SOUNDS_LIKE", fieldName: "t", fieldValue: .string("a"))
        }
    }
}
