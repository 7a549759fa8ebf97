import Foundation
import HeraldModel
@testable import HeraldPredicate

/// Shared test records and helpers.
enum Fixtures {
    static let due: Int64 = 1_795_300_000_000

    /// A record with one field of every type.
    static let note = PredicateRecord(
        recordName: "note-42",
        recordType: "Note",
        fields: [
            "title": .string("Groceries for Émile"),
            "body": .string("Buy milk, eggs and the bread."),
            "priority": .int64(5),
            "score": .double(2.5),
            "due": .timestamp(due),
            "owner": .reference(RecordReference(recordName: "_u1")),
            "place": .location(Location(latitude: 48.8566, longitude: 2.3522)), // Paris
            "stops": .list([.location(Location(latitude: 51.5074, longitude: -0.1278))], of: .location), // London
            "tags": .list([.string("urgent"), .string("home"), .string("Café")], of: .string),
            "counts": .list([.int64(1), .int64(2), .int64(3)], of: .int64),
            "noTags": .list([], of: .string),
            "blob": .bytes(Data([1, 2, 3])),
            "file": .asset(AssetReference(fileChecksum: "abc123", size: 10)),
            "people": .list([.reference(RecordReference(recordName: "_u7"))], of: .reference),
        ],
        creationDate: 1_795_000_000_000,
        modificationDate: 1_795_300_000_500,
        createdBy: "_u1",
        modifiedBy: "_u2"
    )

    static func predicate(_ format: String, _ arguments: [PredicateArgument] = []) throws -> RecordPredicate {
        try RecordPredicate(format: format, arguments: arguments)
    }

    static func matches(_ format: String, _ arguments: [PredicateArgument] = [], record: PredicateRecord = note) throws -> Bool {
        try predicate(format, arguments).compile().evaluate(record)
    }
}
