import Foundation
import HeraldDelivery
import HeraldKafka
import HeraldModel
@testable import HeraldStages
import HeraldTestSupport
import Testing

/// The compose stage reads matches in the compact form this version writes and in the JSON
/// forms earlier match stages wrote — slim (`"form": 2`) and full — (a rolling upgrade), and
/// makes the same notification of each.
/// Without a broker: the processor is fed consumed messages directly.
@Suite("Compose: matches in the compact, the slim and the full form")
struct ComposeMatchFormTests {
    static let container = "iCloud.com.example.notes"
    let catalog = TopicCatalog()

    func processor() -> ComposeProcessor { .unrestored(catalog: catalog) }

    /// A query match whose notification reads two of the change's four fields and its metadata.
    static func match() -> Match {
        let subscription = Subscription(
            subscriptionID: "urgent", subscriptionType: .query, container: container, database: .private,
            ownerRecordName: "_u1", query: SubscriptionQuery(recordType: "Note", predicate: "priority >= 3"),
            firesOn: [.create, .update], firesOnce: true,
            notificationInfo: NotificationInfo(
                alertLocalizationKey: "NOTE_CHANGED", alertLocalizationArgs: ["title", "recordName"], shouldBadge: true,
                desiredKeys: ["priority", "modificationDate"]))
        let change = RecordChange(
            changeID: "c1", container: container, database: .private, zoneID: ZoneID(zoneName: "Notes", ownerRecordName: "_u1"),
            recordType: "Note", recordName: "n-1", kind: .update,
            fields: ["title": .string("Groceries"), "priority": .int64(5), "body": .string(String(repeating: "b", count: 300)),
                     "tags": .list([.string("urgent")], of: .string)],
            previousFields: ["title": .string("Groceri"), "priority": .int64(2)], modifiedBy: "_u2", originDevice: "d-7",
            timestamp: 1_795_300_000_000)
        return Match(
            recipient: "_u1", notificationType: .query, queryNotificationReason: .recordUpdated, subscription: subscription,
            change: change)
    }

    func compose(_ value: Data) async throws -> StageResult {
        let message = ConsumedMessage(
            topicPartition: TopicPartition(catalog.name(TopicCatalog.matches), 0), offset: 0, key: Data("_u1".utf8),
            value: value)
        return try await processor().process([message])
    }

    @Test("a full-form match and the same match slim and compact become the same notification, badge and state")
    func allForms() async throws {
        let match = Self.match()
        let slimBytes = try WireCodec().encode(match)
        let fullBytes = try match.fullFormJSON()
        var writer = CompactWriter()
        let compactBytes = try match.compactEncoded(reusing: &writer)
        #expect(slimBytes.count < fullBytes.count * 2 / 3, "slim \(slimBytes.count) B, full \(fullBytes.count) B")
        #expect(compactBytes.count < slimBytes.count * 2 / 3, "compact \(compactBytes.count) B, slim \(slimBytes.count) B")
        let slim = try await compose(slimBytes)
        let full = try await compose(fullBytes)
        let compact = try await compose(compactBytes)
        #expect(slim.rejections.isEmpty)
        #expect(full.rejections.isEmpty)
        #expect(compact.rejections.isEmpty)
        #expect(slim.outputs.map(\.topic) == full.outputs.map(\.topic))
        #expect(slim.outputs.map(\.value) == full.outputs.map(\.value))
        #expect(compact.outputs.map(\.topic) == slim.outputs.map(\.topic))
        #expect(compact.outputs.map(\.value) == slim.outputs.map(\.value))
        let notifications = slim.outputs.filter { $0.topic == catalog.name(TopicCatalog.notifications) }
        let notification = try WireCodec().decode(HeraldNotification.self, from: #require(notifications.first?.value))
        #expect(notifications.count == 1)
        #expect(notification.alertLocalizationArgs == ["Groceries", "n-1"])
        #expect(notification.recordFields?.keys.sorted() == ["modificationDate", "priority"])
        #expect(notification.recordFields?["priority"] == .integer(5))
        #expect(notification.excludedDevice == "d-7")
        #expect(notification.badge == 1)
    }

    @Test("a match of a form this version does not know is dead-lettered, naming the form")
    func unknownForm() async throws {
        let json = String(decoding: try WireCodec().encode(Self.match()), as: UTF8.self)
            .replacingOccurrences(of: "\"form\":2", with: "\"form\":3")
        let result = try await compose(Data(json.utf8))
        #expect(result.outputs.allSatisfy { $0.topic != catalog.name(TopicCatalog.notifications) })
        let rejection = try #require(result.rejections.first)
        #expect("\(rejection.reason)".contains("unknown match form 3"), "\(rejection.reason)")
    }
}
