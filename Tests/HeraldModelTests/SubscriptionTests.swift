import Foundation
import Testing

@testable import HeraldModel

@Suite("Subscription")
struct SubscriptionTests {
    @Test("the docs/ARCHITECTURE.md §5.2 example decodes")
    func designExample() throws {
        let subscription = try Fixtures.decode(Subscription.self, Fixtures.subscription)
        #expect(subscription.subscriptionID == "urgent-notes")
        #expect(subscription.subscriptionType == .query)
        #expect(subscription.database == .private)
        #expect(subscription.query?.recordType == "Note")
        #expect(subscription.query?.predicate == "priority >= %@ AND tags CONTAINS 'urgent'")
        #expect(subscription.query?.arguments == [3])
        #expect(subscription.firesOn == [.create, .update])
        #expect(subscription.firesOnce == false)
        #expect(subscription.notificationInfo.alertLocalizationArgs == ["title"])
        #expect(subscription.notificationInfo.shouldBadge)
        #expect(subscription.notificationInfo.shouldSendContentAvailable == false)
        #expect(subscription.partitionKey == "iCloud.com.example.notes/private/_u1/urgent-notes")
        #expect(subscription.legacyPartitionKey == "iCloud.com.example.notes/private/urgent-notes")
        #expect(Subscription.key(container: "c", database: .public, owner: "a/b", id: "c")
                != Subscription.key(container: "c", database: .public, owner: "a", id: "b/c"), "no two identities share a key")
        #expect(Subscription.key(container: "c", database: .public, owner: "a%2Fb", id: "c")
                != Subscription.key(container: "c", database: .public, owner: "a/b", id: "c"))
        _ = try Fixtures.roundTrip(subscription)
    }

    @Test("filterBy with typed values and NEAR, and typed predicate arguments, round-trip")
    func filterBy() throws {
        let json = #"""
            {"subscriptionID": "near-me", "subscriptionType": "query", "container": "c", "database": "public",
             "ownerRecordName": "_u1", "firesOn": ["create", "enter", "leave"], "firesOnce": true,
             "query": {"recordType": "Shop", "filterBy": [
               {"comparator": "NEAR", "fieldName": "where", "fieldValue": {"value": {"latitude": 1, "longitude": 2}}, "distance": 500},
               {"comparator": "IN", "fieldName": "kind", "fieldValue": {"value": ["a", "b"], "type": "STRING_LIST"}},
               {"comparator": "NOT_LIST_MEMBER_BEGINS_WITH", "fieldName": "tags", "fieldValue": {"value": "x"}}]}}
            """#
        let subscription = try Fixtures.decode(Subscription.self, json)
        let filters = try #require(subscription.query?.filterBy)
        #expect(filters.map(\.comparator) == [.near, .in, .notListMemberBeginsWith])
        #expect(filters[0].distance == 500)
        #expect(filters[1].fieldValue == .list([.string("a"), .string("b")], of: .string))
        #expect(subscription.firesOn == [.create, .enter, .leave])
        _ = try Fixtures.roundTrip(subscription)

        let typedArguments = try Fixtures.edit(
            Fixtures.subscription, "query.arguments", [3, ["value": 1_700_000_000_000, "type": "TIMESTAMP"], nil, "x"])
        let decoded = try Fixtures.decode(Subscription.self, typedArguments)
        #expect(decoded.query?.arguments?[1] == ["value": 1_700_000_000_000, "type": "TIMESTAMP"])
        _ = try Fixtures.roundTrip(decoded)
    }

    @Test("zone and database subscriptions need no query", arguments: [
        (Subscription.SubscriptionType.zone, DatabaseScope.private), (.database, .private), (.database, .shared),
    ])
    func zoneAndDatabase(type: Subscription.SubscriptionType, database: DatabaseScope) throws {
        let subscription = Subscription(
            subscriptionID: "s", subscriptionType: type, container: "c", database: database, ownerRecordName: "_u1",
            zoneID: type == .zone ? ZoneID(zoneName: "Z", ownerRecordName: "_u1") : nil,
            notificationInfo: NotificationInfo(shouldSendContentAvailable: true))
        _ = try Fixtures.roundTrip(subscription)
    }

    static let malformed: [(path: String, value: JSONValue?, code: ModelError.Code, errorPath: String)] = [
        ("subscriptionID", "", .invalidValue, "subscriptionID"),
        ("subscriptionType", "record", .unknownValue, "subscriptionType"),
        ("subscriptionType", "zone", .invalidValue, "query"),
        ("database", "public", .invalidValue, "firesOn"),
        ("ownerRecordName", nil, .missingValue, "ownerRecordName"),
        ("query", nil, .missingValue, "query"),
        ("query.recordType", "", .invalidValue, "query.recordType"),
        ("query.predicate", "", .invalidValue, "query.predicate"),
        ("query.filterBy", [], .invalidValue, "query.filterBy"),
        ("query.filterBy.0", ["comparator": "LIKE", "fieldName": "f", "fieldValue": ["value": 1]], .unknownValue, "query.filterBy[0].comparator"),
        ("query.filterBy.0", ["comparator": "EQUALS", "fieldName": "", "fieldValue": ["value": 1]], .invalidValue, "query.filterBy[0].fieldName"),
        ("query.filterBy.0", ["comparator": "EQUALS", "fieldName": "f", "fieldValue": ["value": "five", "type": "INT64"]], .typeMismatch, "query.filterBy[0].fieldValue.value"),
        ("query.filterBy.0", ["comparator": "NEAR", "fieldName": "f", "fieldValue": ["value": "x"]], .invalidValue, "query.filterBy[0].fieldValue"),
        ("query.filterBy.0", ["comparator": "NEAR", "fieldName": "f", "fieldValue": ["value": ["latitude": 0, "longitude": 0]]], .missingValue, "query.filterBy[0].distance"),
        ("firesOn", [], .invalidValue, "firesOn"),
        ("firesOn", ["create", "create"], .invalidValue, "firesOn[1]"),
        ("firesOn", ["create", "upsert"], .unknownValue, "firesOn[1]"),
        ("firesOnce", "yes", .typeMismatch, "firesOnce"),
        ("zoneID.zoneName", "", .invalidValue, "zoneID.zoneName"),
        ("notificationInfo.desiredKeys", ["title", ""], .invalidValue, "notificationInfo.desiredKeys[1]"),
        ("notificationInfo.shouldBadge", 1, .typeMismatch, "notificationInfo.shouldBadge"),
    ]

    @Test("malformed subscriptions are errors naming the offending field", arguments: malformed)
    func malformedSubscription(path: String, value: JSONValue?, code: ModelError.Code, errorPath: String) throws {
        var json = Fixtures.subscription
        if path == "database" {
            // A query subscription in the public database is fine; make the firesOn rule fail instead.
            json = try Fixtures.edit(json, "firesOn", [])
        } else if path.hasPrefix("query.filterBy.") {
            json = try Fixtures.edit(try Fixtures.edit(json, "query", ["recordType": "Note", "filterBy": [nil]]), path, value)
        }
        if !path.hasPrefix("query.filterBy.") { json = try Fixtures.edit(json, path, value) }
        let error = try #require(Fixtures.decodeError(Subscription.self, json))
        #expect(error.code == code, "\(error)")
        #expect(error.path == errorPath, "\(error)")
    }

    @Test("an unknown comparator is named in the message")
    func unknownComparator() throws {
        let json = try Fixtures.edit(
            Fixtures.subscription, "query",
            ["recordType": "Note", "filterBy": [["comparator": "LIKE", "fieldName": "f", "fieldValue": ["value": 1]]]])
        let error = try #require(Fixtures.decodeError(Subscription.self, json))
        #expect(error.description.hasPrefix(#"query.filterBy[0].comparator: unknown comparator "LIKE""#), "\(error)")
    }

    @Test("a zone subscription outside the private database is rejected")
    func zoneInPublic() throws {
        let subscription = Subscription(
            subscriptionID: "s", subscriptionType: .zone, container: "c", database: .public, ownerRecordName: "_u1",
            zoneID: ZoneID(zoneName: "Z", ownerRecordName: "_u1"))
        let bytes = try Fixtures.codec.encode(subscription)
        let error = try #require(Fixtures.decodeError(Subscription.self, String(decoding: bytes, as: UTF8.self)))
        #expect(error.path == "subscriptionType")
        #expect(error.reason == "zone subscriptions are not allowed in the public database")
    }
}
