import Foundation
import HeraldKafka
import HeraldModel
import HeraldReader
import HeraldStages
import HeraldTestSupport
import Hummingbird
import Testing

/// A fires-once subscription saved again under the same ID after it fired is a new
/// subscription (CloudKit deletes one after its first notification): it fires again, once,
/// end to end over HTTP (the process `herald run` builds).
@Suite("HTTP pipeline: a fires-once subscription saved again", .timeLimit(.minutes(5)))
struct FiresOnceResavePipelineTests {
    private static let container = "iCloud.com.example.notes"

    private static func change(_ id: String) -> Data {
        Data("""
            {"changeID": "\(id)", "container": "\(container)", "database": "private",
             "zoneID": {"zoneName": "Notes", "ownerRecordName": "_u1"}, "recordType": "Note", "recordName": "n-\(id)",
             "kind": "create", "fields": {"title": {"value": "T\(id)", "type": "STRING"}}, "timestamp": 1795300000000}
            """.utf8)
    }

    @Test("'once' fires on c1, not on c2 (retired), and again on c3 after it is saved again; 'every' shows each change was matched")
    func savedAgain() async throws {
        let fixture = try await PipelineFixture()
        let producer = try fixture.producer()
        let topic = fixture.catalog.name(TopicCatalog.recordChanges)
        let headers = try await RuntimeHTTPClient.headers(user: "_u1", container: Self.container)
        let path = "/v1/containers/\(Self.container)/private/subscriptions"
        let once = #"{"subscriptionType": "query", "query": {"recordType": "Note", "predicate": "TRUEPREDICATE"}, "firesOn": ["create"], "firesOnce": true, "notificationInfo": {"alertBody": "Once"}}"#
        let every = #"{"subscriptionType": "query", "query": {"recordType": "Note", "predicate": "TRUEPREDICATE"}, "firesOn": ["create"], "notificationInfo": {"alertBody": "Every"}}"#
        let send = { @Sendable (id: String) in
            _ = try await producer.send([OutgoingMessage(topic: topic, key: "z", value: Self.change(id))])
        }
        let configuration = fixture.runtimeConfiguration([.match, .compose, .reader])
        defer { try? FileManager.default.removeItem(atPath: configuration.dataDirectory) }

        try await fixture.withRuntime(configuration) { runtime in
            let (store, table) = (try #require(runtime.store), try #require(runtime.matchTable))
            let stored = { @Sendable (count: Int) in
                try await Wait.value(timeout: .seconds(60), every: .milliseconds(100)) {
                    try await store.fetch(recipient: "_u1", container: Self.container, after: nil, limit: 100).notifications
                } until: { $0.count >= count }
            }
            try await runtime.withHTTPClient { client in
                let save = { @Sendable (id: String, body: String) in
                    let saved = try await client.execute(uri: "\(path)/\(id)", method: .put, headers: headers, body: ByteBuffer(string: body))
                    #expect(saved.status == .ok, "\(id): \(String(buffer: saved.body))")
                }
                try await save("once", once)
                try await save("every", every)
                #expect(try await Wait.until(timeout: .seconds(60)) { table.isReady && table.count == 2 }, "both loaded")
                try await send("c1")
                _ = try await stored(2)
                // The match stage retired 'once' as it fired.
                #expect(try await Wait.until(timeout: .seconds(60)) { table.count == 1 }, "'once' retired")
                try await send("c2")
                _ = try await stored(3)
                try await save("once", once)
                #expect(try await Wait.until(timeout: .seconds(60)) { table.count == 2 }, "'once' loaded again")
                try await send("c3")
                let notifications = try await stored(5)
                let fired = { (id: String) in notifications.filter { $0.subscriptionID == id }.compactMap { $0.recordID?.recordName } }
                #expect(fired("once") == ["n-c1", "n-c3"])
                #expect(fired("every") == ["n-c1", "n-c2", "n-c3"])
                #expect(notifications.count == 5)
            }
        }
        await producer.close()
    }
}
