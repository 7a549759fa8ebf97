import HeraldModel
import Testing
@testable import HeraldPredicate

@Suite("filterBy NOT_LIST_CONTAINS_ANY and NOT_LIST_CONTAINS_ALL")
struct NegatedListFilterTests {
    typealias C = FilterClause.Comparator

    private static func strings(_ values: String...) -> FieldValue { .list(values.map(FieldValue.string), of: .string) }

    private static func record(_ field: FieldValue?) -> PredicateRecord {
        var record = Fixtures.note
        record.fields["tags"] = field
        return record
    }

    private static func evaluate(_ comparator: C, _ values: FieldValue, on field: FieldValue?, name: String = "tags") throws -> Bool {
        try RecordPredicate(filterBy: [FilterClause(comparator: comparator, fieldName: name, fieldValue: values)])
            .evaluate(record(field))
    }

    @Test("each is the exact negation of its positive form, on lists, empty lists, missing and non-list fields", arguments: [
        (C.notListContainsAny, C.listContainsAny), (.notListContainsAll, .listContainsAll), (.notListContains, .listContains),
    ])
    func negation(negated: C, positive: C) throws {
        let fields: [FieldValue?] = [
            Self.strings("urgent", "home", "Café"), Self.strings(), nil, .string("urgent"), .string("urgently"), .int64(5),
            .list([.int64(1), .int64(2)], of: .int64),
        ]
        let valueLists: [FieldValue] = [
            Self.strings("urgent"), Self.strings("urgent", "home"), Self.strings("urgent", "x"), Self.strings("x", "y"), Self.strings(),
            .list([.int64(2)], of: .int64), .list([.int64(2), .int64(9)], of: .int64),
        ]
        for field in fields {
            for values in valueLists {
                // NOT_LIST_CONTAINS takes one value: give it the first.
                var value = values
                if positive == .listContains, case .list(let items, _) = values { value = items.first ?? .string("") }
                #expect(try Self.evaluate(negated, value, on: field) == !(try Self.evaluate(positive, value, on: field)),
                        "\(negated.rawValue) \(value) on \(String(describing: field))")
            }
        }
    }

    @Test("documented cases", arguments: [
        // A list field: none of the values / not every value.
        (C.notListContainsAny, strings("a", "home"), strings("urgent", "home"), false),
        (.notListContainsAny, strings("a", "b"), strings("urgent", "home"), true),
        (.notListContainsAll, strings("urgent", "home"), strings("urgent", "home"), false),
        (.notListContainsAll, strings("urgent", "x"), strings("urgent", "home"), true),
        // A missing field or an empty list holds none of the values, so both match.
        (.notListContainsAny, strings("a"), nil, true),
        (.notListContainsAll, strings("a"), nil, true),
        (.notListContainsAny, strings("a"), strings(), true),
        (.notListContainsAll, strings("a"), strings(), true),
        // An empty list of values: nothing to contain (ANY matches always), all of nothing is held (ALL never).
        (.notListContainsAny, strings(), strings("a"), true),
        (.notListContainsAny, strings(), nil, true),
        (.notListContainsAll, strings(), strings("a"), false),
        (.notListContainsAll, strings(), nil, false),
        // A non-list field: ANY treats it as a one-element list (equality); ALL tests CONTAINS
        // as NOT_LIST_CONTAINS does (a substring on a STRING, equality on other scalars).
        (.notListContainsAny, strings("urgent"), .string("urgent"), false),
        (.notListContainsAny, strings("urg"), .string("urgent"), true),
        (.notListContainsAll, strings("urg"), .string("urgent"), false),
        (.notListContainsAll, strings("x"), .string("urgent"), true),
        (.notListContainsAny, .list([.int64(5)], of: .int64), .int64(5), false),
        (.notListContainsAll, .list([.int64(5)], of: .int64), .int64(5), false),
        (.notListContainsAll, .list([.int64(5), .int64(6)], of: .int64), .int64(5), true),
    ] as [(C, FieldValue, FieldValue?, Bool)])
    func cases(comparator: C, values: FieldValue, field: FieldValue?, expected: Bool) throws {
        #expect(try Self.evaluate(comparator, values, on: field) == expected)
    }

    @Test("canonical NSPredicate text, which parses back to the same tree", arguments: [
        (C.notListContainsAny, strings("a", "b"), "NOT (ANY tags IN {'a', 'b'})"),
        (.notListContainsAny, strings(), "NOT (ANY tags IN {})"),
        (.notListContainsAll, strings("a", "b"), "NOT (tags CONTAINS 'a' AND tags CONTAINS 'b')"),
        (.notListContainsAll, strings("a"), "NOT (tags CONTAINS 'a')"),
        (.notListContainsAll, strings(), "FALSEPREDICATE"),
    ])
    func rendering(comparator: C, values: FieldValue, text: String) throws {
        let predicate = try RecordPredicate(filterBy: [FilterClause(comparator: comparator, fieldName: "tags", fieldValue: values)])
        #expect(predicate.canonicalFormat == text)
        #expect(try RecordPredicate(format: text) == predicate)
    }

    @Test("a value that is not a list is refused naming the clause", arguments: [C.notListContainsAny, .notListContainsAll])
    func notAList(comparator: C) {
        let ok = FilterClause(comparator: .equals, fieldName: "x", fieldValue: .int64(1))
        #expect {
            _ = try RecordPredicate(filterBy: [ok, FilterClause(comparator: comparator, fieldName: "tags", fieldValue: .string("a"))])
        } throws: { error in
            guard let e = error as? RecordPredicateError else { return false }
            return e.code == .invalidFilter && e.position.line == 2
                && e.reason == "clause 2 (\(comparator.rawValue)): fieldValue must be a list"
        }
    }

    @Test("strict CloudKit rules accept NOT_LIST_CONTAINS_ALL in a list, but not its format-string spelling")
    func strict() throws {
        let schema: [String: FieldType] = ["tags": .stringList, "title": .string]
        let clause = FilterClause(comparator: .notListContainsAll, fieldName: "tags", fieldValue: Self.strings("a", "b"))
        let predicate = try RecordPredicate(filterBy: [clause], cloudKitRules: true, schema: schema)
        #expect(throws: RecordPredicateError.self) {
            try RecordPredicate(format: predicate.canonicalFormat, cloudKitRules: true, schema: schema)
        }
        // Other rules still apply inside it: a number against a STRING_LIST is refused.
        let mismatch = FilterClause(comparator: .notListContainsAll, fieldName: "tags", fieldValue: .list([.int64(1), .int64(2)], of: .int64))
        #expect(throws: RecordPredicateError.self) {
            try RecordPredicate(filterBy: [mismatch], cloudKitRules: true, schema: schema)
        }
        let any = FilterClause(comparator: .notListContainsAny, fieldName: "tags", fieldValue: Self.strings("a", "b"))
        #expect(try RecordPredicate(filterBy: [any], cloudKitRules: true, schema: schema).cloudKitDiagnostics(schema: schema).isEmpty)
    }
}
