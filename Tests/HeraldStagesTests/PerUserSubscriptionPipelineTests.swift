import Foundation
import HeraldKafka
import HeraldModel
import HeraldReader
import HeraldStages
import HeraldTestSupport
import Hummingbird
import Testing

/// Subscription IDs are per user, end to end (the process `herald run` builds, over its HTTP
/// server): two users save the same IDs over HTTP and each is notified of their own changes,
/// with notification IDs of their own.
@Suite("HTTP pipeline: subscription IDs per user", .timeLimit(.minutes(5)))
struct PerUserSubscriptionPipelineTests {
    private static let container = "iCloud.com.example.notes"

    private static func change(_ id: String, database: String, owner: String) -> Data {
        Data("""
            {"changeID": "\(id)", "container": "\(container)", "database": "\(database)",
             "zoneID": {"zoneName": "Notes", "ownerRecordName": "\(owner)"}, "recordType": "Note", "recordName": "n-\(id)",
             "kind": "create", "fields": {"title": {"value": "T\(id)", "type": "STRING"}}, "timestamp": 1795300000000}
            """.utf8)
    }

    /// What a notification is about: `database` for a database notification (it names no
    /// record), else the record's name.
    private static func subject(_ notification: HeraldNotification) -> String {
        notification.notificationType == .database ? "database" : notification.recordID?.recordName ?? "?"
    }

    /// `user`'s stored notifications once there are at least `count` (or after 60 s: a
    /// loaded machine joins groups slowly).
    private static func notifications(_ store: NotificationStore, _ user: String, count: Int) async throws -> [HeraldNotification] {
        try await Wait.value(timeout: .seconds(60), every: .milliseconds(100)) {
            try await store.fetch(recipient: user, container: container, after: nil, limit: 100).notifications
        } until: { $0.count >= count }
    }

    @Test("two users' 'private-changes' and 'public-notes' each notify their owner; one user's delete leaves the other's")
    func twoUsers() async throws {
        let fixture = try await PipelineFixture()
        let producer = try fixture.producer()
        let topic = fixture.catalog.name(TopicCatalog.recordChanges)
        let users = ["_u1", "_u2"]
        var headers: [String: HTTPFields] = [:]
        for user in users { headers[user] = try await RuntimeHTTPClient.headers(user: user, container: Self.container) }
        let auth = headers
        let base = "/v1/containers/\(Self.container)"
        let privateBody = #"{"subscriptionType": "database", "notificationInfo": {"shouldSendContentAvailable": true}}"#
        let publicBody = #"{"subscriptionType": "query", "query": {"recordType": "Note", "predicate": "TRUEPREDICATE"}, "firesOn": ["create"], "notificationInfo": {"alertBody": "New"}}"#
        // Every change under one key: one partition, matched in order.
        let send = { @Sendable (changes: [Data]) in
            _ = try await producer.send(changes.map { OutgoingMessage(topic: topic, key: "z", value: $0) })
        }

        let configuration = fixture.runtimeConfiguration([.match, .compose, .reader])
        defer { try? FileManager.default.removeItem(atPath: configuration.dataDirectory) }

        try await fixture.withRuntime(configuration) { runtime in
            let (store, table) = (try #require(runtime.store), try #require(runtime.matchTable))
            try await runtime.withHTTPClient { client in
                for user in users {
                    let saved = try await client.execute(
                        uri: "\(base)/private/subscriptions/private-changes", method: .put, headers: auth[user]!, body: ByteBuffer(string: privateBody))
                    #expect(saved.status == .ok, "\(user): \(String(buffer: saved.body))")
                    let query = try await client.execute(
                        uri: "\(base)/public/subscriptions/public-notes", method: .put, headers: auth[user]!, body: ByteBuffer(string: publicBody))
                    #expect(query.status == .ok, "\(user): \(String(buffer: query.body))")
                }
                // The match stage holds the four subscriptions before any change comes (it follows
                // the `subscriptions` topic on its own consumer: a PUT's answer does not wait for it).
                let loaded = try await Wait.until(timeout: .seconds(60)) { table.isReady && table.count == 4 }
                #expect(loaded, "the match stage holds both users' subscriptions")
                try await send([
                    Self.change("c1", database: "private", owner: "_u1"), Self.change("c2", database: "private", owner: "_u2"),
                    Self.change("c3", database: "public", owner: "_u9"),
                ])
                let first = try await Self.notifications(store, "_u1", count: 2)
                let second = try await Self.notifications(store, "_u2", count: 2)
                #expect(first.map(Self.subject) == ["database", "n-c3"])
                #expect(second.map(Self.subject) == ["database", "n-c3"])
                #expect(first.map(\.subscriptionID) == ["private-changes", "public-notes"])
                #expect(second.map(\.subscriptionID) == ["private-changes", "public-notes"])
                #expect(first[1].notificationID != second[1].notificationID, "the same change, each user's own notification ID")

                let deleted = try await client.execute(uri: "\(base)/private/subscriptions/private-changes", method: .delete, headers: auth["_u1"]!)
                #expect(deleted.status == .ok)
                let kept = try await client.execute(uri: "\(base)/private/subscriptions/private-changes", method: .get, headers: auth["_u2"]!)
                #expect(kept.status == .ok)
                #expect(String(buffer: kept.body).contains(#""ownerRecordName":"_u2""#))
                // Likewise the delete: c4 must come after the match stage dropped the subscription.
                let dropped = try await Wait.until(timeout: .seconds(60)) { table.count == 3 }
                #expect(dropped, "the match stage dropped _u1's 'private-changes'")
                // c4 in _u1's zone fires nothing now; c6 (public) after it shows it was matched.
                try await send([
                    Self.change("c4", database: "private", owner: "_u1"), Self.change("c5", database: "private", owner: "_u2"),
                    Self.change("c6", database: "public", owner: "_u9"),
                ])
                let later = try await Self.notifications(store, "_u1", count: 3)
                #expect(later.map(Self.subject) == ["database", "n-c3", "n-c6"])
                let others = try await Self.notifications(store, "_u2", count: 4)
                #expect(others.map(Self.subject) == ["database", "n-c3", "database", "n-c6"])
            }
        }
        await producer.close()
    }
}
