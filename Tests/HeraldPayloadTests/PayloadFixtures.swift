import Foundation
import HeraldModel
@testable import HeraldPayload

/// Builders for subscriptions, changes and matches, and JSON helpers, for payload tests.
enum PayloadFixtures {
    static let container = "iCloud.com.example.notes"
    static let zone = ZoneID(zoneName: "Notes", ownerRecordName: "_u1")

    /// The record change of docs/ARCHITECTURE.md §5.1.
    static func change(
        kind: RecordChange.Kind = .update, fields: [String: FieldValue]? = nil, changeID: String = "c-0001",
        database: DatabaseScope = .private, recordName: String = "note-42"
    ) -> RecordChange {
        RecordChange(
            changeID: changeID, container: container, database: database, zoneID: zone, recordType: "Note",
            recordName: recordName, kind: kind,
            fields: fields ?? ["title": .string("Groceries"), "priority": .int64(5)],
            modifiedBy: "_u1", originDevice: "d-77", timestamp: 1_795_300_000_000)
    }

    /// A query subscription of `_u1` in the private database.
    static func subscription(
        _ info: NotificationInfo, type: Subscription.SubscriptionType = .query, id: String = "urgent-notes",
        database: DatabaseScope = .private
    ) -> Subscription {
        Subscription(
            subscriptionID: id, subscriptionType: type, container: container, database: database,
            ownerRecordName: "_u1",
            query: type == .query ? SubscriptionQuery(recordType: "Note", predicate: "TRUEPREDICATE") : nil,
            zoneID: type == .query ? nil : zone, firesOn: type == .query ? [.create, .update, .delete] : [],
            notificationInfo: info)
    }

    /// A match of `change` by a subscription with `info`.
    static func match(
        _ info: NotificationInfo, reason: QueryNotificationReason? = .recordUpdated,
        type: NotificationType = .query, change: RecordChange = change()
    ) -> Match {
        let subscriptionType: Subscription.SubscriptionType = switch type {
        case .recordZone: .zone
        case .database: .database
        default: .query
        }
        return Match(
            recipient: "_u1", notificationType: type, queryNotificationReason: type == .query ? reason : nil,
            subscription: subscription(info, type: subscriptionType), change: change)
    }

    /// Composes with the defaults used by the golden tests.
    static func compose(
        _ match: Match, badge: Int? = nil, locale: String? = nil, catalog: LocalizationCatalog? = nil,
        limits: PayloadLimits = PayloadLimits(), voip: Bool = false
    ) throws -> ComposedNotification {
        try NotificationComposer(limits: limits).compose(
            match, sequence: 42, createdAt: 1_795_300_000_123, badge: badge, locale: locale, catalog: catalog, voip: voip)
    }

    /// The payload bytes as text.
    static func text(_ composed: ComposedNotification) -> String {
        String(decoding: composed.payload, as: UTF8.self)
    }

    /// Parses JSON bytes with Foundation (a check that they are valid JSON).
    static func parse(_ bytes: [UInt8]) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
    }

    /// Parses JSON bytes into a `JSONValue`.
    static func jsonValue(_ bytes: [UInt8]) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: Data(bytes))
    }
}
