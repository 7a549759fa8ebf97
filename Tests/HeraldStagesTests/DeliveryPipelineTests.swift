import Foundation
import HeraldApp
import HeraldKafka
import HeraldModel
import HeraldReader
import HeraldStages
import HeraldTestSupport
import Testing

/// Match → compose → reader in the process `herald run` builds (`HeraldApp.buildRuntime`),
/// on the embedded broker, with its SQLite store.
@Suite("Delivery pipeline", .timeLimit(.minutes(5)))
struct DeliveryPipelineTests {
    private let container = "iCloud.com.example.notes"

    private func subscription(_ id: String, predicate: String, badge: Bool) -> Data {
        Data("""
            {"subscriptionID": "\(id)", "subscriptionType": "query", "container": "\(container)", "database": "private",
             "ownerRecordName": "_u1", "query": {"recordType": "Note", "predicate": "\(predicate)"},
             "firesOn": ["create", "update"],
             "notificationInfo": {"alertBody": "Note changed", "shouldBadge": \(badge), "desiredKeys": ["title"], "soundName": "default"}}
            """.utf8)
    }

    private func change(_ id: String, priority: Int) -> Data {
        Data("""
            {"changeID": "\(id)", "container": "\(container)", "database": "private",
             "zoneID": {"zoneName": "Notes", "ownerRecordName": "_u1"}, "recordType": "Note", "recordName": "n-\(id)",
             "kind": "create", "fields": {"priority": {"value": \(priority), "type": "INT64"}, "title": {"value": "T\(id)", "type": "STRING"}},
             "originDevice": "d-1", "timestamp": 1795300000000}
            """.utf8)
    }

    /// A runtime of the three stages (and so the API) keeping its store in `directory`;
    /// compose's clock stands still.
    private func configuration(_ fixture: PipelineFixture, directory: String) -> HeraldConfiguration {
        var configuration = fixture.runtimeConfiguration([.match, .compose, .reader], dataDirectory: directory)
        configuration.clock = { 1_795_300_000_500 }
        return configuration
    }

    /// Waits until the user's stream holds `count` notifications.
    private func waitForStream(_ store: NotificationStore, count: Int, timeout: Duration = .seconds(60)) async throws -> [HeraldNotification] {
        try await Wait.value(timeout: timeout, every: .milliseconds(100)) {
            try await store.fetch(recipient: "_u1", container: container, after: nil, limit: 400).notifications
        } until: { $0.count >= count }
    }

    /// Waits until match, compose and the reader have each consumed everything written
    /// before them, in that order: what the changes sent so far lead to is all stored.
    private func waitUntilDrained(_ fixture: PipelineFixture, _ store: NotificationStore) async throws -> Bool {
        let catalog = fixture.catalog
        guard try await fixture.waitUntilCommitted(
                group: HeraldStage.match.groupID(prefix: catalog.prefix), [catalog.name(TopicCatalog.recordChanges)],
                timeout: .seconds(60)),
              try await fixture.waitUntilCommitted(
                group: HeraldStage.compose.groupID(prefix: catalog.prefix),
                [catalog.name(TopicCatalog.matches), catalog.name(TopicCatalog.badgeResets)], timeout: .seconds(60))
        else { return false }
        return try await fixture.reader.waitUntilConsumed(
            [catalog.name(TopicCatalog.notifications)], partitions: catalog.partitions, timeout: .seconds(60)
        ) {
            Dictionary(try await store.offsets().map { (TopicPartition($0.topic, $0.partition), $0.nextOffset) }) { max($0, $1) }
        }
    }

    @Test("changes become notifications in order with badges; paging, duplicates upstream and a reader restart lose and double nothing")
    func endToEnd() async throws {
        let fixture = try await PipelineFixture()
        let catalog = fixture.catalog
        let producer = try fixture.producer()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("herald-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }

        _ = try await producer.send([
            OutgoingMessage(topic: catalog.name(TopicCatalog.subscriptions), key: "\(container)/private/_u1/high",
                            value: subscription("high", predicate: "priority >= 3", badge: true)),
            OutgoingMessage(topic: catalog.name(TopicCatalog.users), key: "_u1",
                            value: Data(#"{"userRecordName": "_u1", "locale": "fr-FR"}"#.utf8)),
        ])
        let changes = (1...7).map { OutgoingMessage(topic: catalog.name(TopicCatalog.recordChanges), key: "zone", value: change("c\($0)", priority: $0)) }
        _ = try await producer.send(changes)

        let (store, first) = try await fixture.withRuntime(configuration(fixture, directory: directory)) { runtime in
            let store = try #require(runtime.store)
            let notifications = try await waitForStream(store, count: 5)
            // The same changes again (an upstream replay): same IDs, no new notification, badge unchanged.
            _ = try await producer.send(changes)
            #expect(try await waitUntilDrained(fixture, store), "the stages consumed the replay")
            return (store, notifications)
        }
        #expect(first.map(\.sequence) == [1, 2, 3, 4, 5])
        #expect(first.map(\.badge) == [1, 2, 3, 4, 5])
        #expect(first.map { $0.recordID?.recordName } == ["n-c3", "n-c4", "n-c5", "n-c6", "n-c7"])
        #expect(first.allSatisfy { $0.queryNotificationReason == .recordCreated && $0.excludedDevice == "d-1" })
        #expect(first.first?.rendered?.locale == "fr-FR")
        #expect(first.first?.apns?.payload.objectValue?["ck"]?.objectValue?["qry"]?.objectValue?["af"] == .object(["title": .string("Tc3")]))
        #expect(first.map(\.notificationID) == (3...7).map { Match.notificationID(changeID: "c\($0)", owner: "_u1", subscriptionID: "high") })

        let afterReplay = try await store.fetch(recipient: "_u1", container: container, after: nil, limit: 400)
        #expect(afterReplay.notifications.count == 5, "the replayed changes added nothing")
        #expect(try await store.badge(recipient: "_u1", container: container) == 5)

        // Paging with a results limit returns each notification exactly once, in order.
        var seen: [Int64] = []
        var token: ChangeToken?
        var pages = 0
        while true {
            let page = try await store.fetch(recipient: "_u1", container: container, after: token, limit: 2)
            seen += page.notifications.map(\.sequence)
            token = page.serverChangeToken
            pages += 1
            if !page.moreComing { break }
        }
        #expect(seen == [1, 2, 3, 4, 5] && pages == 3)
        try store.close()

        // A restarted reader resumes from its saved offsets: nothing new, nothing doubled; new work continues.
        let (reopened, second) = try await fixture.withRuntime(configuration(fixture, directory: directory)) { runtime in
            let reopened = try #require(runtime.store)
            _ = try await producer.send([OutgoingMessage(topic: catalog.name(TopicCatalog.recordChanges), key: "zone", value: change("c8", priority: 8))])
            return (reopened, try await waitForStream(reopened, count: 6))
        }
        #expect(second.map(\.sequence) == [1, 2, 3, 4, 5, 6])
        #expect(second.last?.badge == 6)
        let stats = try await reopened.stats()
        #expect(stats.notifications == 6)
        // The reader resumed (it served c8, so it checked its store first): kept, not rebuilt.
        #expect(!fixture.recentLog.contains("rebuilding the reader store"), "recent log:\n\(fixture.recentLog.text)")
        try reopened.close()
        await producer.close()
    }
}
