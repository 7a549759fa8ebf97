import Foundation
import HeraldModel
import Testing
@testable import HeraldPredicate

@Suite("Evaluator: every operator over every field type")
struct EvaluatorTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var format: String
        var arguments: [PredicateArgument] = []
        var expected: Bool
        init(_ format: String, _ arguments: [PredicateArgument], _ expected: Bool) {
            self.format = format
            self.arguments = arguments
            self.expected = expected
        }
        init(_ format: String, _ expected: Bool) {
            self.init(format, [], expected)
        }
        var testDescription: String { "\(format) → \(expected)" }
    }

    @Test("INT64 and DOUBLE compare across types", arguments: [
        Case("priority == 5", true), Case("priority == 5.0", true), Case("priority = 4", false),
        Case("priority != 4", true), Case("priority != 5", false),
        Case("priority < 6", true), Case("priority < 5", false), Case("priority <= 5", true),
        Case("priority > 4.5", true), Case("priority >= 5", true), Case("priority >= 5.5", false),
        Case("priority BETWEEN {5, 9}", true), Case("priority BETWEEN {1, 5}", true), Case("priority BETWEEN {6, 9}", false),
        Case("priority IN {1, 5, 7}", true), Case("priority IN {1, 7}", false),
        Case("score == 2.5", true), Case("score > 2", true), Case("score < 2", false),
        Case("score BETWEEN {2, 3}", true), Case("score IN {2.5}", true),
        Case("priority == %@", [.double(5)], true), Case("score < %@", [.int(3)], true),
        Case("priority == '5'", false), Case("priority < 'z'", false),
        Case("priority == TRUE", false), Case("priority != TRUE", true),
    ])
    func numbers(_ c: Case) throws { try check(c) }

    @Test("TIMESTAMP against timestamps, dates and milliseconds", arguments: [
        Case("due == %@", [.timestamp(Fixtures.due)], true),
        Case("due == TIMESTAMP(1795300000000)", true),
        Case("due == 1795300000000", true),
        Case("due > %@", [.date(Date(timeIntervalSince1970: 1_795_299_999))], true),
        Case("due < %@", [.date(Date(timeIntervalSince1970: 1_795_299_999))], false),
        Case("due BETWEEN {TIMESTAMP(1795299999999), TIMESTAMP(1795300000000)}", true),
        Case("due >= 1.7953e12", true),
        Case("creationDate < modificationDate", true),
        Case("modificationDate > TIMESTAMP(1795300000000)", true),
        Case("creationDate == TIMESTAMP(1)", false),
    ])
    func timestamps(_ c: Case) throws { try check(c) }

    @Test("STRING operators and options", arguments: [
        Case("title == 'Groceries for Émile'", true),
        Case("title == 'groceries for émile'", false),
        Case("title ==[c] 'groceries for émile'", true),
        Case("title ==[c] 'groceries for emile'", false),
        Case("title ==[cd] 'GROCERIES FOR EMILE'", true),
        Case("title ==[d] 'Groceries for Emile'", true),
        Case("title != 'x'", true),
        Case("title BEGINSWITH 'Groc'", true), Case("title BEGINSWITH 'groc'", false),
        Case("title BEGINSWITH[c] 'groc'", true),
        Case("title ENDSWITH 'Émile'", true), Case("title ENDSWITH[cd] 'EMILE'", true), Case("title ENDSWITH 'x'", false),
        Case("title CONTAINS 'ies f'", true), Case("title CONTAINS 'IES'", false), Case("title CONTAINS[c] 'IES'", true),
        Case("title LIKE 'Groc*'", true), Case("title LIKE '*mile'", true), Case("title LIKE 'G?oceries*'", true),
        Case("title LIKE 'groc*'", false), Case("title LIKE[cd] 'groc*EMILE'", true), Case("title LIKE '*x*'", false),
        Case("title LIKE '*'", true),
        Case("title < 'H'", true), Case("title > 'H'", false), Case("title <[c] 'h'", true),
        Case("title IN {'a', 'Groceries for Émile'}", true), Case("title IN[c] {'groceries for émile'}", true),
        Case("title IN 'xx Groceries for Émile xx'", true),
        Case("title BETWEEN {'A', 'H'}", true),
    ])
    func strings(_ c: Case) throws { try check(c) }

    @Test("REFERENCE compares by record name", arguments: [
        Case("owner == '_u1'", true), Case("owner == %@", [.reference("_u1")], true),
        Case("owner == REFERENCE('_u1')", true), Case("owner != '_u1'", false),
        Case("owner IN {'_u0', '_u1'}", true), Case("owner BEGINSWITH '_u'", true),
        Case("createdBy == '_u1'", true), Case("modifiedBy == %@", [.reference("_u2")], true),
        Case("createdBy == modifiedBy", false), Case("createdBy == owner", true),
        Case("people CONTAINS '_u7'", true), Case("ANY people == %@", [.reference("_u7")], true),
        Case("recordName == 'note-42'", true), Case("recordName BEGINSWITH 'note-'", true),
        Case("recordID == 'note-42'", true),
    ])
    func references(_ c: Case) throws { try check(c) }

    @Test("lists by membership", arguments: [
        Case("tags CONTAINS 'urgent'", true), Case("tags CONTAINS 'urg'", false),
        Case("tags CONTAINS[c] 'café'", true), Case("tags CONTAINS[cd] 'CAFE'", true), Case("tags CONTAINS 'cafe'", false),
        Case("'home' IN tags", true), Case("'office' IN tags", false),
        Case("ANY tags == 'home'", true), Case("SOME tags == 'office'", false),
        Case("ANY tags BEGINSWITH 'urg'", true), Case("ANY tags BEGINSWITH 'x'", false),
        Case("ANY tags IN {'office', 'home'}", true), Case("tags IN {'office', 'home'}", true),
        Case("ANY tags IN {'office'}", false),
        Case("ALL tags LIKE '*'", true), Case("ALL tags BEGINSWITH 'u'", false),
        Case("NONE tags == 'office'", true), Case("NONE tags == 'home'", false),
        Case("ALL noTags == 'x'", true), Case("NONE noTags == 'x'", true), Case("ANY noTags == 'x'", false),
        Case("counts CONTAINS 2", true), Case("counts CONTAINS 2.0", true), Case("counts CONTAINS 4", false),
        Case("ANY counts > 2", true), Case("ALL counts > 0", true), Case("ALL counts > 1", false),
        Case("ANY counts BETWEEN {3, 4}", true),
        Case("counts == {1, 2, 3}", true), Case("counts == {1, 2}", false), Case("counts != {1, 2}", true),
        Case("tags == 'home'", false), Case("tags BEGINSWITH 'urg'", false),
        Case("ANY priority == 5", true), Case("ALL priority == 5", true), Case("NONE priority == 5", false),
        Case("ANY tags CONTAINS 'rgen'", true), Case("ANY tags ENDSWITH 'ome'", true), Case("ANY tags LIKE[cd] 'CA*'", true),
        Case("ALL tags CONTAINS 'e'", false), Case("NONE tags BEGINSWITH 'x'", true),
        Case("ANY tags == %@", [.value(.list([.string("home")], of: .string))], false),
    ])
    func lists(_ c: Case) throws { try check(c) }

    @Test("LOCATION, BYTES and ASSETID", arguments: [
        Case("place == LOCATION(48.8566, 2.3522)", true), Case("place == LOCATION(48.8566, 2.3)", false),
        Case("place == %@", [.location(latitude: 48.8566, longitude: 2.3522)], true),
        Case("blob == BYTES('AQID')", true), Case("blob == %@", [.value(.bytes(Data([1, 2])))], false),
        Case("blob != BYTES('AQID')", false),
        Case("file == 'abc123'", true), Case("file BEGINSWITH 'abc'", true),
    ])
    func otherTypes(_ c: Case) throws { try check(c) }

    @Test("compounds and constants", arguments: [
        Case("TRUEPREDICATE", true), Case("FALSEPREDICATE", false),
        Case("priority == 5 AND score == 2.5", true), Case("priority == 5 AND score == 1", false),
        Case("priority == 1 OR score == 2.5", true), Case("priority == 1 OR score == 1", false),
        Case("NOT priority == 1", true), Case("!(priority == 5)", false),
        Case("NOT (priority == 1 OR score == 1)", true),
        Case("(priority == 1 OR priority == 5) AND NOT tags CONTAINS 'office'", true),
        Case("1 == 1", true), Case("'a' BEGINSWITH 'b'", false),
    ])
    func compounds(_ c: Case) throws { try check(c) }

    func check(_ c: Case) throws {
        let result = try Fixtures.matches(c.format, c.arguments)
        #expect(result == c.expected, "\(c.format)")
    }

    @Test("a compiled predicate is Sendable and evaluates concurrently")
    func concurrent() async throws {
        let compiled = try Fixtures.predicate("priority >= 3 AND tags CONTAINS 'urgent' AND SELF CONTAINS 'milk'").compile()
        let results = await withTaskGroup(of: Bool.self, returning: [Bool].self) { group in
            for _ in 0..<8 {
                group.addTask { (0..<1000).allSatisfy { _ in compiled.evaluate(Fixtures.note) } }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results == Array(repeating: true, count: 8))
    }

    @Test("one compiled predicate can be shared and reused")
    func reuse() throws {
        let compiled = try Fixtures.predicate("priority > %@", [.int(3)]).compile()
        var low = Fixtures.note
        low.fields["priority"] = .int64(1)
        #expect(compiled.evaluate(Fixtures.note))
        #expect(!compiled.evaluate(low))
        #expect(compiled.evaluate(Fixtures.note))
    }
}
