import Foundation
import Testing

@testable import HeraldModel

@Suite("RecordChange")
struct RecordChangeTests {
    @Test("the docs/ARCHITECTURE.md §5.1 example decodes")
    func designExample() throws {
        let change = try Fixtures.decode(RecordChange.self, Fixtures.recordChange)
        #expect(change.changeID == "c-0001")
        #expect(change.database == .private)
        #expect(change.zoneID == ZoneID(zoneName: "Notes", ownerRecordName: "_u1"))
        #expect(change.kind == .update)
        #expect(change.fields == ["title": .string("Groceries"), "priority": .int64(5)])
        #expect(change.previousFields == ["title": .string("Groceri"), "priority": .int64(2)])
        #expect(change.modifiedBy == "_u1")
        #expect(change.originDevice == "d-77")
        #expect(change.timestamp == 1_795_300_000_000)
        #expect(change.participants == nil)
        #expect(change.partitionKey == "iCloud.com.example.notes/private/_u1")
        #expect(change.zoneKey == "iCloud.com.example.notes/private/_u1/Notes")
        #expect(change.recordID == RecordID(recordName: "note-42", zoneID: change.zoneID))
        _ = try Fixtures.roundTrip(change)
    }

    @Test("a shared-database change with participants and metadata round-trips")
    func sharedWithMetadata() throws {
        let change = RecordChange(
            changeID: "c-2", container: "iCloud.x", database: .shared, zoneID: ZoneID(zoneName: "Trip", ownerRecordName: "_u9"),
            recordType: "Item", recordName: "i-1", kind: .delete,
            fields: ["tags": .list([.string("a"), .string("ß")], of: .string), "due": .timestamp(1_700_000_000_000)],
            timestamp: 1, participants: ["_u2", "_u3"], createdBy: "_u9", creationDate: 1_600_000_000_000)
        let decoded = try Fixtures.roundTrip(change)
        #expect(decoded.partitionKey == "iCloud.x/shared/_u9")
        let text = String(decoding: try Fixtures.codec.encode(change), as: UTF8.self)
        #expect(!text.contains("previousFields"))
        #expect(!text.contains("originDevice"))
    }

    @Test("absent fields decode as an empty record")
    func absentFields() throws {
        let json = try Fixtures.edit(Fixtures.recordChange, "fields", nil)
        #expect(try Fixtures.decode(RecordChange.self, json).fields.isEmpty)
    }

    static let malformed: [(path: String, value: JSONValue?, code: ModelError.Code, errorPath: String)] = [
        ("changeID", "", .invalidValue, "changeID"),
        ("changeID", nil, .missingValue, "changeID"),
        ("container", nil, .missingValue, "container"),
        ("database", "global", .unknownValue, "database"),
        ("zoneID", nil, .missingValue, "zoneID"),
        ("zoneID.zoneName", "", .invalidValue, "zoneID.zoneName"),
        ("zoneID.ownerRecordName", nil, .missingValue, "zoneID.ownerRecordName"),
        ("recordType", 5, .typeMismatch, "recordType"),
        ("recordName", "", .invalidValue, "recordName"),
        ("kind", "upsert", .unknownValue, "kind"),
        ("timestamp", -1, .invalidValue, "timestamp"),
        ("timestamp", "now", .typeMismatch, "timestamp"),
        ("timestamp", nil, .missingValue, "timestamp"),
        ("fields", "x", .typeMismatch, "fields"),
        ("fields.bad-name", ["value": "x"], .invalidValue, "fields.bad-name"),
        ("fields.title", "Groceries", .typeMismatch, "fields.title"),
        ("previousFields.priority.type", "INT32", .unknownValue, "previousFields.priority.type"),
        ("participants", ["_u2"], .invalidValue, "participants"),
        ("modifiedBy", "", .invalidValue, "modifiedBy"),
        ("originDevice", 7, .typeMismatch, "originDevice"),
        ("creationDate", -5, .invalidValue, "creationDate"),
    ]

    @Test("malformed changes are errors naming the offending field", arguments: malformed)
    func malformedChange(path: String, value: JSONValue?, code: ModelError.Code, errorPath: String) throws {
        let json = try Fixtures.edit(Fixtures.recordChange, path, value)
        let error = try #require(Fixtures.decodeError(RecordChange.self, json))
        #expect(error.code == code, "\(error)")
        #expect(error.path == errorPath, "\(error)")
    }

    @Test("the unknown kind is named in the message")
    func unknownKindMessage() throws {
        let json = try Fixtures.edit(Fixtures.recordChange, "kind", "upsert")
        let error = try #require(Fixtures.decodeError(RecordChange.self, json))
        #expect(error.description == #"kind: unknown kind "upsert" (expected one of: create, update, delete)"#)
    }
}
