import Foundation
import Testing

@testable import HeraldModel

/// The docs/ARCHITECTURE.md §5 examples, verbatim, and helpers shared by the suites.
enum Fixtures {
    static let recordChange = #"""
        {"changeID": "c-0001", "container": "iCloud.com.example.notes", "database": "private",
         "zoneID": {"zoneName": "Notes", "ownerRecordName": "_u1"},
         "recordType": "Note", "recordName": "note-42", "kind": "update",
         "fields": {"title": {"value": "Groceries", "type": "STRING"}, "priority": {"value": 5, "type": "INT64"}},
         "previousFields": {"title": {"value": "Groceri", "type": "STRING"}, "priority": {"value": 2, "type": "INT64"}},
         "modifiedBy": "_u1", "originDevice": "d-77", "timestamp": 1795300000000}
        """#

    static let subscription = #"""
        {"subscriptionID": "urgent-notes", "subscriptionType": "query", "container": "iCloud.com.example.notes",
         "database": "private", "ownerRecordName": "_u1",
         "query": {"recordType": "Note", "predicate": "priority >= %@ AND tags CONTAINS 'urgent'", "arguments": [3]},
         "zoneID": {"zoneName": "Notes", "ownerRecordName": "_u1"},
         "firesOn": ["create", "update"], "firesOnce": false,
         "notificationInfo": {"titleLocalizationKey": "NOTE_TITLE", "alertLocalizationKey": "NOTE_CHANGED",
           "alertLocalizationArgs": ["title"], "soundName": "default", "shouldBadge": true, "desiredKeys": ["title"]}}
        """#

    static let notification = #"""
        {"notificationID": "5b1c…", "notificationType": "query", "containerIdentifier": "iCloud.com.example.notes",
         "subscriptionID": "urgent-notes", "subscriptionOwnerUserRecordID": "_u1", "recipient": "_u1", "sequence": 42,
         "queryNotificationReason": "recordUpdated", "databaseScope": "private",
         "recordID": {"recordName": "note-42", "zoneID": {"zoneName": "Notes", "ownerRecordName": "_u1"}},
         "recordFields": {"title": "Groceries"}, "badge": 3, "soundName": "default",
         "alertLocalizationKey": "NOTE_CHANGED", "alertLocalizationArgs": ["Groceries"],
         "rendered": {"locale": "fr-FR", "title": "Note", "body": "« Groceries » a changé"},
         "isPruned": false, "excludedDevice": "d-77", "createdAt": 1795300000123,
         "apns": {"pushType": "alert", "priority": 10, "collapseID": null,
                  "payload": {"aps": {"alert": {"title-loc-key": "NOTE_TITLE", "loc-key": "NOTE_CHANGED", "loc-args": ["Groceries"]},
                                      "badge": 3, "sound": "default"},
                              "ck": {"ce": 2, "cid": "iCloud.com.example.notes", "nid": "5b1c…", "ckuserid": "_u1",
                                     "qry": {"sid": "urgent-notes", "dbs": 1, "zid": "Notes", "zoid": "_u1",
                                             "rid": "note-42", "fo": 2, "af": {"title": "Groceries"}}}}}}
        """#

    static let codec = WireCodec()

    static func decode<T: Decodable>(_ type: T.Type, _ json: String) throws(ModelError) -> T {
        try codec.decode(type, from: Data(json.utf8))
    }

    /// The error decoding `json` gives, or `nil` when it decodes.
    static func decodeError<T: Decodable>(_ type: T.Type, _ json: String) -> ModelError? {
        do {
            _ = try codec.decode(type, from: Data(json.utf8))
            return nil
        } catch {
            return error
        }
    }

    /// `json` (an object) with the member at dotted `path` replaced, or removed when `value` is nil.
    static func edit(_ json: String, _ path: String, _ value: JSONValue?) throws -> String {
        let root = try codec.decode(JSONValue.self, from: Data(json.utf8))
        let edited = root.setting(path.split(separator: ".").map(String.init), to: value)
        return String(decoding: try codec.encode(edited), as: UTF8.self)
    }

    /// Encodes then decodes `value`, expecting the same value and identical bytes on a second encode.
    static func roundTrip<T: Codable & Equatable>(_ value: T) throws -> T {
        let bytes = try codec.encode(value)
        let decoded = try codec.decode(T.self, from: bytes)
        #expect(decoded == value)
        #expect(try codec.encode(decoded) == bytes)
        return decoded
    }
}

extension JSONValue {
    func setting(_ path: [String], to value: JSONValue?) -> JSONValue {
        guard let key = path.first else { return value ?? .null }
        if case .array(var elements) = self, let index = Int(key), elements.indices.contains(index) {
            elements[index] = elements[index].setting(Array(path.dropFirst()), to: value)
            return .array(elements)
        }
        var members = objectValue ?? [:]
        if path.count == 1 {
            members[key] = value
        } else {
            members[key] = (members[key] ?? .object([:])).setting(Array(path.dropFirst()), to: value)
        }
        return .object(members)
    }
}
