import Testing
@testable import HeraldPredicate

@Suite("Top-level conjuncts for indexing")
struct ConjunctTests {
    typealias Bound = IndexableConstraint.Bound

    @Test("indexable shapes", arguments: [
        ("priority == 5", IndexableConstraint.equal(field: "priority", value: .int(5), options: [])),
        ("title ==[c] 'x'", .equal(field: "title", value: .string("x"), options: .caseInsensitive)),
        ("priority IN {1, 2}", .member(field: "priority", values: [.int(1), .int(2)], options: [])),
        ("ANY tags IN {'a'}", .member(field: "tags", values: [.string("a")], options: [])),
        ("ANY tags == 'a'", .member(field: "tags", values: [.string("a")], options: [])),
        ("'a' IN tags", .contains(field: "tags", value: .string("a"), options: [])),
        ("priority < 5", .range(field: "priority", lower: nil, upper: Bound(.int(5), inclusive: false))),
        ("5 <= priority", .range(field: "priority", lower: Bound(.int(5), inclusive: true), upper: nil)),
        ("priority BETWEEN {1, 9}", .range(field: "priority", lower: Bound(.int(1), inclusive: true), upper: Bound(.int(9), inclusive: true))),
        ("title BEGINSWITH 'Gro'", .prefix(field: "title", prefix: "Gro", options: [], anyElement: false)),
        ("ANY tags BEGINSWITH 'u'", .prefix(field: "tags", prefix: "u", options: [], anyElement: true)),
        ("SELF CONTAINS 'Milk the bread'", .tokens(field: nil, tokens: ["milk", "bread"])),
        ("distanceToLocation:fromLocation:(place, LOCATION(1, 2)) < 5", .withinDistance(field: "place", latitude: 1, longitude: 2, kilometres: 5, inclusive: false)),
        ("recordID == 'n'", .equal(field: "recordName", value: .string("n"), options: [])),
    ])
    func shapes(format: String, constraint: IndexableConstraint) throws {
        let conjuncts = try Fixtures.predicate(format).conjuncts
        #expect(conjuncts.count == 1)
        #expect(conjuncts.first?.constraint == constraint)
    }

    @Test("not indexable", arguments: [
        "a == 1 OR b == 2", "NOT a == 1", "a == b", "a ENDSWITH 'x'", "a LIKE 'x'", "ALL t == 1",
        "NONE t == 1", "a != 1", "a == NULL", "a.b == 1", "TRUEPREDICATE", "a CONTAINS {1}",
        "distanceToLocation:fromLocation:(place, LOCATION(1, 2)) > 5",
    ])
    func notIndexable(format: String) throws {
        #expect(try Fixtures.predicate(format).conjuncts.allSatisfy { $0.constraint == nil })
    }

    @Test("top-level AND splits into conjuncts; the residual keeps its node")
    func split() throws {
        let p = try Fixtures.predicate("priority >= %@ AND tags CONTAINS 'urgent' AND (a == 1 OR b == 2)", [.int(3)])
        let conjuncts = p.conjuncts
        #expect(conjuncts.count == 3)
        #expect(conjuncts.map(\.constraint?.field) == ["priority", "tags", nil])
        #expect(conjuncts[2].node == (try Fixtures.predicate("a == 1 OR b == 2")).root)
        // Evaluating the residual conjuncts together equals the whole predicate.
        let residual = RecordPredicate(.and(conjuncts.dropFirst().map(\.node)))
        #expect(residual.evaluate(Fixtures.note) == false)
    }

    @Test("referenced keys")
    func keys() throws {
        let p = try Fixtures.predicate("priority > 1 AND (a.b == c OR recordID == 'x') AND body TOKENMATCHES 'x' AND distanceToLocation:fromLocation:(place, LOCATION(1, 2)) < 1")
        #expect(p.root.referencedKeys == ["priority", "a.b", "c", "recordName", "body", "place"])
        #expect(!p.root.searchesAllFields)
        #expect(try Fixtures.predicate("NOT SELF CONTAINS 'x'").root.searchesAllFields)
    }
}
