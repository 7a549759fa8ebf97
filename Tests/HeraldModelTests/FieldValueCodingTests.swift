import Foundation
import Testing

@testable import HeraldModel

@Suite("FieldValue wire form {value, type}")
struct FieldValueCodingTests {
    static let zone = ZoneID(zoneName: "Notes", ownerRecordName: "_u1")
    static let place = Location(
        latitude: 48.8566, longitude: 2.3522, horizontalAccuracy: 5, verticalAccuracy: 3, altitude: 35.5,
        speed: 1.25, course: 270, timestamp: 1_795_300_000_000)
    static let asset = AssetReference(
        fileChecksum: "AbC123==", size: 1_048_576, referenceChecksum: "ref", wrappingKey: "wk", receipt: "rc",
        downloadURL: "https://cvws.icloud-content.com/B/x/${f}?o=1")

    static let values: [FieldValue] = [
        .string("Groceries"), .string(""), .string("« Grüße » 🐦 日本語 \u{0000}\u{001F} \"q\" \\ /"),
        .int64(0), .int64(-1), .int64(.max), .int64(.min),
        .double(3.25), .double(-0.0), .double(0.1), .double(1e300), .double(-2.5e-308), .double(5),
        .timestamp(1_795_300_000_000), .timestamp(0), .timestamp(-86_400_000),
        .bytes(Data()), .bytes(Data([0, 1, 2, 253, 254, 255])),
        .reference(RecordReference(recordName: "note-1")),
        .reference(RecordReference(recordName: "note-2", zoneID: zone, action: .deleteSelf)),
        .location(Location(latitude: -90, longitude: 180)), .location(place),
        .asset(AssetReference(fileChecksum: "c", size: 0)), .asset(asset),
        .list([], of: .string), .list([], of: .int64), .list([], of: .assetID),
        .list([.string("a"), .string("b")], of: .string),
        .list([.int64(.max), .int64(.min)], of: .int64),
        .list([.double(-0.0), .double(1.5)], of: .double),
        .list([.timestamp(1), .timestamp(2)], of: .timestamp),
        .list([.bytes(Data([1])), .bytes(Data())], of: .bytes),
        .list([.reference(RecordReference(recordName: "r", zoneID: zone))], of: .reference),
        .list([.location(place)], of: .location),
        .list([.asset(asset)], of: .assetID),
    ]

    @Test("every field type round-trips to an equal value and identical bytes", arguments: values)
    func roundTrip(_ value: FieldValue) throws {
        let decoded = try Fixtures.roundTrip(value)
        if case .double(let number) = value, case .double(let back) = decoded {
            #expect(number.sign == back.sign)
        }
    }

    @Test("negative zero keeps its sign, also inside a DOUBLE_LIST")
    func negativeZero() throws {
        let scalar = try Fixtures.decode(FieldValue.self, #"{"value": -0.0, "type": "DOUBLE"}"#)
        guard case .double(let number) = scalar else { Issue.record("not a double: \(scalar)"); return }
        #expect(number == 0 && number.sign == .minus)
        let list = try Fixtures.decode(FieldValue.self, #"{"value": [-0, 1], "type": "DOUBLE_LIST"}"#)
        guard case .list(let items, of: .double) = list, case .double(let first) = items.first else {
            Issue.record("not a double list: \(list)"); return
        }
        #expect(first.sign == .minus)
    }

    @Test("the type is always written, the value in wire form")
    func encodedForm() throws {
        let bytes = try Fixtures.codec.encode(FieldValue.bytes(Data("abc".utf8)))
        #expect(String(decoding: bytes, as: UTF8.self) == #"{"type":"BYTES","value":"YWJj"}"#)
        let reference = try Fixtures.codec.encode(FieldValue.reference(RecordReference(recordName: "a/b")))
        #expect(String(decoding: reference, as: UTF8.self) == #"{"type":"REFERENCE","value":{"action":"NONE","recordName":"a/b"}}"#)
    }

    static let inferred: [(json: String, expected: FieldValue)] = [
        (#""hi""#, .string("hi")),
        ("42", .int64(42)),
        ("9223372036854775807", .int64(.max)),
        ("-9223372036854775808", .int64(.min)),
        ("2.5", .double(2.5)),
        ("2.0", .int64(2)),
        ("9223372036854775808", .double(9_223_372_036_854_775_808)),
        (#"{"recordName": "r1"}"#, .reference(RecordReference(recordName: "r1"))),
        (#"{"latitude": 1, "longitude": 2.5}"#, .location(Location(latitude: 1, longitude: 2.5))),
        (#"{"fileChecksum": "x", "size": 3}"#, .asset(AssetReference(fileChecksum: "x", size: 3))),
        ("[]", .list([], of: .string)),
        (#"["a", "b"]"#, .list([.string("a"), .string("b")], of: .string)),
        ("[1, 2]", .list([.int64(1), .int64(2)], of: .int64)),
        ("[1, 2.5]", .list([.double(1), .double(2.5)], of: .double)),
        (#"[{"recordName": "a"}]"#, .list([.reference(RecordReference(recordName: "a"))], of: .reference)),
    ]

    @Test("a value without a type gets the inferred type", arguments: inferred)
    func inference(json: String, expected: FieldValue) throws {
        let value = try Fixtures.decode(FieldValue.self, #"{"value": \#(json)}"#)
        #expect(value == expected)
    }

    @Test("the {value, type} form also reads from a JSONValue (typed predicate arguments)")
    func wireJSON() throws {
        #expect(try FieldValue(wireJSON: ["value": 1_700_000_000_000, "type": "TIMESTAMP"]) == .timestamp(1_700_000_000_000))
        #expect(try FieldValue(wireJSON: ["value": ["a"]]) == .list([.string("a")], of: .string))
        for value in Self.values {
            #expect(try FieldValue(wireJSON: value.wireJSON) == value)
        }
        let path: [any CodingKey] = [WireKey("arguments"), WireKey(index: 1)]
        #expect(throws: ModelError(.missingValue, "required key is missing", path: "arguments[1].value")) {
            try FieldValue(wireJSON: ["type": "STRING"], at: path)
        }
        #expect(throws: ModelError.self) { try FieldValue(wireJSON: ["value": 1, "type": "BOOL"]) }
        #expect(throws: ModelError.self) { try FieldValue(wireJSON: "x") }
    }

    @Test("declared types read integers and strings as what they say")
    func declaredTypes() throws {
        #expect(try Fixtures.decode(FieldValue.self, #"{"value": 1795300000000, "type": "TIMESTAMP"}"#)
            == .timestamp(1_795_300_000_000))
        #expect(try Fixtures.decode(FieldValue.self, #"{"value": 7, "type": "DOUBLE"}"#) == .double(7))
        #expect(try Fixtures.decode(FieldValue.self, #"{"value": "AAE=", "type": "BYTES"}"#) == .bytes(Data([0, 1])))
        #expect(try Fixtures.decode(FieldValue.self, #"{"value": [], "type": "LOCATION_LIST"}"#) == .list([], of: .location))
    }

    /// Malformed values inside a record: each names the offending path.
    static let malformed: [(field: String, code: ModelError.Code, path: String, reason: String)] = [
        (#"{"value": "five", "type": "INT64"}"#, .typeMismatch, "fields.f.value", #"INT64 expects a 64-bit integer, got "five""#),
        (#"{"value": 1.5, "type": "INT64"}"#, .typeMismatch, "fields.f.value", "INT64 expects a 64-bit integer"),
        (#"{"value": 9223372036854775808, "type": "INT64"}"#, .typeMismatch, "fields.f.value", "INT64 expects"),
        (#"{"value": 5, "type": "STRING"}"#, .typeMismatch, "fields.f.value", "STRING expects a string, got 5"),
        (#"{"value": "x", "type": "DOUBLE"}"#, .typeMismatch, "fields.f.value", "DOUBLE expects a number"),
        (#"{"value": 1.5, "type": "TIMESTAMP"}"#, .typeMismatch, "fields.f.value", "TIMESTAMP expects integer milliseconds"),
        (#"{"value": "not base64!", "type": "BYTES"}"#, .invalidValue, "fields.f.value", "invalid base64"),
        (#"{"value": 1, "type": "INTEGER"}"#, .unknownValue, "fields.f.type", #"unknown field type "INTEGER""#),
        (#"{"type": "STRING"}"#, .missingValue, "fields.f.value", "missing"),
        (#"{"value": null, "type": "STRING"}"#, .missingValue, "fields.f.value", "must not be null"),
        (#"{"value": null}"#, .missingValue, "fields.f.value", "must not be null"),
        (#"{"value": true}"#, .typeMismatch, "fields.f.value", "booleans are not a CloudKit field type"),
        (#"{"value": {"name": "x"}}"#, .typeMismatch, "fields.f.value", "cannot infer the type"),
        (#"{"value": [1, "a"]}"#, .typeMismatch, "fields.f.value[1]", "homogeneous"),
        (#"{"value": [[1]]}"#, .typeMismatch, "fields.f.value[0]", "scalar"),
        (#"{"value": [[1]], "type": "INT64_LIST"}"#, .typeMismatch, "fields.f.value[0]", "scalar"),
        (#"{"value": ["a", 2], "type": "STRING_LIST"}"#, .typeMismatch, "fields.f.value[1]", "STRING expects a string, got 2"),
        (#"{"value": "a", "type": "STRING_LIST"}"#, .typeMismatch, "fields.f.value", "STRING_LIST expects an array"),
        (#"{"value": {"latitude": 91, "longitude": 0}}"#, .invalidValue, "fields.f.value.latitude", "[-90, 90]"),
        (#"{"value": {"latitude": 0, "longitude": -180.5}}"#, .invalidValue, "fields.f.value.longitude", "[-180, 180]"),
        (#"{"value": {"longitude": 0}, "type": "LOCATION"}"#, .missingValue, "fields.f.value.latitude", "missing"),
        (#"{"value": {"latitude": "n", "longitude": 0}, "type": "LOCATION"}"#, .typeMismatch, "fields.f.value.latitude", "a number"),
        (#"{"value": [{"latitude": 0, "longitude": 200}], "type": "LOCATION_LIST"}"#, .invalidValue, "fields.f.value[0].longitude", "[-180, 180]"),
        (#"{"value": {"recordName": ""}}"#, .invalidValue, "fields.f.value.recordName", "must not be empty"),
        (#"{"value": {"recordName": "r", "action": "CASCADE"}}"#, .unknownValue, "fields.f.value.action", "CASCADE"),
        (#"{"value": {"recordName": "r", "zoneID": {"zoneName": "z"}}}"#, .missingValue, "fields.f.value.zoneID.ownerRecordName", "missing"),
        (#"{"value": "r", "type": "REFERENCE"}"#, .typeMismatch, "fields.f.value", "REFERENCE expects an object"),
        (#"{"value": {"fileChecksum": "c"}}"#, .missingValue, "fields.f.value.size", "missing"),
        (#"{"value": {"fileChecksum": "c", "size": -1}}"#, .invalidValue, "fields.f.value.size", "negative"),
        (#"{"value": "x", "type": 5}"#, .typeMismatch, "fields.f.type", "expected a string"),
    ]

    @Test("a malformed field value is an error naming its path", arguments: malformed)
    func malformedField(field: String, code: ModelError.Code, path: String, reason: String) throws {
        let json = try Fixtures.edit(Fixtures.recordChange, "fields.f", nil)
            .replacingOccurrences(of: #""fields":{"#, with: #""fields":{"f":\#(field),"#)
        let error = try #require(Fixtures.decodeError(RecordChange.self, json))
        #expect(error.code == code)
        #expect(error.path == path)
        #expect(error.reason.contains(reason), "\(error)")
    }

    @Test("the documented example message")
    func documentedMessage() throws {
        let json = try Fixtures.edit(Fixtures.recordChange, "fields.priority.value", "five")
        let error = try #require(Fixtures.decodeError(RecordChange.self, json))
        #expect(error.description == #"fields.priority.value: INT64 expects a 64-bit integer, got "five""#)
    }

    @Test("a list whose elements do not match its type cannot be encoded")
    func inconsistentListEncoding() {
        #expect(throws: ModelError.self) { try Fixtures.codec.encode(FieldValue.list([.string("a")], of: .int64)) }
        #expect(throws: ModelError.self) { try Fixtures.codec.encode(FieldValue.list([], of: .stringList)) }
        #expect(throws: ModelError.self) { try Fixtures.codec.encode(FieldValue.double(.nan)) }
    }

    @Test("field names follow CloudKit's rule", arguments: [
        ("title", true), ("a1_b", true), ("A", true), ("", false), ("1a", false), ("_a", false), ("a-b", false),
        ("é", false), (String(repeating: "a", count: 255), true), (String(repeating: "a", count: 256), false),
    ])
    func fieldNames(name: String, valid: Bool) {
        #expect(FieldValue.isValidFieldName(name) == valid)
    }
}
