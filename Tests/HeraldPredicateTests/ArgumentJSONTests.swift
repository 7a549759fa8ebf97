import Foundation
import HeraldModel
import Testing
@testable import HeraldPredicate

@Suite("Arguments from JSONSerialization output")
struct ArgumentJSONTests {
    func decode(_ json: String) throws -> [PredicateArgument] {
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8), options: [.fragmentsAllowed])
        return try PredicateArgument.list(json: try #require(object as? [Any]))
    }

    @Test("plain JSON values")
    func plain() throws {
        #expect(try decode(#"[3, 2.5, 2.0, "a", true, false, null, [1, "x"]]"#) == [
            .int(3), .double(2.5), .double(2), .string("a"), .bool(true), .bool(false), .null,
            .list([.int(1), .string("x")]),
        ])
    }

    @Test("typed values in the {value, type} form")
    func typed() throws {
        let json = #"""
        [{"value": 1795300000000, "type": "TIMESTAMP"},
         {"value": {"recordName": "_u1", "action": "NONE"}, "type": "REFERENCE"},
         {"value": {"latitude": 48.85, "longitude": 2.35}, "type": "LOCATION"},
         {"value": ["a", "b"], "type": "STRING_LIST"},
         {"value": 5, "type": "DOUBLE"},
         {"value": "AQID", "type": "BYTES"},
         {"recordName": "_u2"},
         {"latitude": 1, "longitude": 2},
         {"value": 7}]
        """#
        #expect(try decode(json) == [
            .timestamp(1_795_300_000_000), .reference("_u1"), .location(latitude: 48.85, longitude: 2.35),
            .value(.list([.string("a"), .string("b")], of: .string)), .double(5), .value(.bytes(Data([1, 2, 3]))),
            .reference("_u2"), .location(latitude: 1, longitude: 2), .int(7),
        ])
    }

    @Test("unreadable values are errors naming the argument", arguments: [
        #"[1, {"value": "x", "type": "INT64"}]"#,
        #"[1, {"value": 1, "type": "NOPE"}]"#,
        #"[1, {"foo": 1}]"#,
        #"[1, {"value": [1, "x"], "type": "INT64_LIST"}]"#,
    ])
    func bad(json: String) {
        #expect {
            _ = try decode(json)
        } throws: { error in
            guard let e = error as? RecordPredicateError else { return false }
            return e.code == .invalidArgument && e.position.column == 2 && e.reason.hasPrefix("argument 2")
        }
    }

    @Test("the docs/ARCHITECTURE.md §5.2 example subscription")
    func designExample() throws {
        let arguments = try decode("[3]")
        let p = try RecordPredicate(format: "priority >= %@ AND tags CONTAINS 'urgent'", arguments: arguments)
        #expect(p.evaluate(Fixtures.note))
    }
}
