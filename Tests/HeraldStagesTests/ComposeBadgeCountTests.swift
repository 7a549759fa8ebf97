import Foundation
import HeraldDelivery
import HeraldKafka
import HeraldModel
@testable import HeraldStages
import Testing

/// The compose stage's `badges` output (docs/ARCHITECTURE.md §5.4), without a broker: the
/// processor is fed consumed messages directly; restore is never called. (`@testable`: the
/// initializer without a `StageContext`, whose producer needs a broker.)
@Suite("Compose: badge counts on topic badges")
struct ComposeBadgeCountTests {
    static let container = "iCloud.com.example.notes"
    let catalog = TopicCatalog()

    func processor() -> ComposeProcessor { .unrestored(catalog: catalog) }

    func match(_ changeID: String, badges: Bool) -> Match {
        let subscription = Subscription(
            subscriptionID: badges ? "badging" : "quiet", subscriptionType: .query, container: Self.container,
            database: .private, ownerRecordName: "_u1",
            query: SubscriptionQuery(recordType: "Note", predicate: "TRUEPREDICATE"), firesOn: [.create],
            notificationInfo: NotificationInfo(alertBody: "Changed", shouldBadge: badges))
        let change = RecordChange(
            changeID: changeID, container: Self.container, database: .private,
            zoneID: ZoneID(zoneName: "Notes", ownerRecordName: "_u1"), recordType: "Note", recordName: "n-\(changeID)",
            kind: .create, fields: ["title": .string("x")], timestamp: 1_795_300_000_000)
        return Match(
            recipient: "_u1", notificationType: .query, queryNotificationReason: .recordCreated, subscription: subscription,
            change: change)
    }

    func message(_ topic: TopicCatalog.Topic, offset: Int64, _ value: some Encodable) throws -> ConsumedMessage {
        ConsumedMessage(
            topicPartition: TopicPartition(catalog.name(topic), 2), offset: offset, key: Data("_u1".utf8),
            value: try WireCodec().encode(value))
    }

    /// The batch's `badges` records, decoded, with their keys and partitions.
    func badgeCounts(_ result: StageResult) throws -> [BadgeCount] {
        let records = result.outputs.filter { $0.topic == catalog.name(TopicCatalog.badges) }
        for record in records {
            #expect(record.partition == 2)
        }
        let counts = try records.map { try WireCodec().decode(BadgeCount.self, from: #require($0.value)) }
        #expect(records.map { $0.key.map { String(decoding: $0, as: UTF8.self) } } == counts.map(\.key))
        return counts
    }

    @Test("a badged notification writes the new count, an unbadged one writes none, a reset writes its value")
    func counts() async throws {
        let compose = processor()
        let batch = [
            try message(TopicCatalog.matches, offset: 0, match("c1", badges: true)),
            try message(TopicCatalog.matches, offset: 1, match("c2", badges: false)),
            try message(TopicCatalog.matches, offset: 2, match("c3", badges: true)),
            try message(TopicCatalog.badgeResets, offset: 0, BadgeReset(
                recipient: "_u1", containerIdentifier: Self.container, badge: 0, requestedAt: 1_795_300_000_100)),
        ]
        let result = try await compose.process(batch)
        #expect(result.rejections.isEmpty)
        #expect(try badgeCounts(result) == [
            BadgeCount(recipient: "_u1", containerIdentifier: Self.container, badge: 1),
            BadgeCount(recipient: "_u1", containerIdentifier: Self.container, badge: 2),
            BadgeCount(recipient: "_u1", containerIdentifier: Self.container, badge: 0),
        ])
        #expect(BadgeCount(recipient: "_u1", containerIdentifier: Self.container, badge: 0).key == "\(Self.container)/_u1")
    }

    @Test("a replayed input writes no count again; a reset to the current value still writes it")
    func replays() async throws {
        let compose = processor()
        let first = try message(TopicCatalog.matches, offset: 5, match("c1", badges: true))
        #expect(try badgeCounts(await compose.process([first])).map(\.badge) == [1])
        await compose.delivered([first])
        #expect(try badgeCounts(await compose.process([first])).isEmpty)
        let reset = try message(TopicCatalog.badgeResets, offset: 0, BadgeReset(
            recipient: "_u1", containerIdentifier: Self.container, badge: 1, requestedAt: 1_795_300_000_100))
        #expect(try badgeCounts(await compose.process([reset])).map(\.badge) == [1])
        await compose.delivered([reset])
        #expect(try badgeCounts(await compose.process([reset])).isEmpty)
    }
}
