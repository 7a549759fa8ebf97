import Foundation
import HeraldApp
import HeraldKafka
import HeraldModel
import HeraldStages
import HeraldTestSupport
import Hummingbird
import Testing

/// The whole path through the process `herald run` builds (`HeraldApp.buildRuntime` with
/// match, compose and the reader, so the HTTP API too): a subscription PUT over HTTP goes to
/// Kafka, the stages turn changes into notifications, and a client fetches them page by page
/// from the runtime's HTTP server and resets its badge — all on the embedded broker.
@Suite("HTTP pipeline", .timeLimit(.minutes(5)))
struct HTTPPipelineTests {
    private let container = "iCloud.com.example.notes"

    private func change(_ id: String) -> Data {
        Data("""
            {"changeID": "\(id)", "container": "\(container)", "database": "private",
             "zoneID": {"zoneName": "Notes", "ownerRecordName": "_u1"}, "recordType": "Note", "recordName": "n-\(id)",
             "kind": "create", "fields": {"title": {"value": "T\(id)", "type": "STRING"}}, "timestamp": 1795300000000}
            """.utf8)
    }

    @Test("subscription over HTTP → changes → notifications fetched in order with bound tokens; a badge reset takes effect")
    func endToEnd() async throws {
        let fixture = try await PipelineFixture()
        let catalog = fixture.catalog
        let producer = try fixture.producer()
        let auth = try await RuntimeHTTPClient.headers(user: "_u1", container: container)
        let other = try await RuntimeHTTPClient.headers(user: "_u2", container: container)
        let base = "/v1/containers/\(container)"
        let configuration = fixture.runtimeConfiguration([.match, .compose, .reader])
        defer { try? FileManager.default.removeItem(atPath: configuration.dataDirectory) }

        try await fixture.withRuntime(configuration) { runtime in
            let (store, table) = (try #require(runtime.store), try #require(runtime.matchTable))
            try await runtime.withHTTPClient { client in
                let put = try await client.execute(
                    uri: "\(base)/private/subscriptions/notes", method: .put, headers: auth,
                    body: ByteBuffer(string: #"{"subscriptionType": "query", "query": {"recordType": "Note", "predicate": "TRUEPREDICATE"}, "firesOn": ["create"], "notificationInfo": {"alertBody": "New note", "shouldBadge": true}}"#))
                #expect(put.status == .ok)
                let listed = try await client.execute(uri: "\(base)/private/subscriptions", method: .get, headers: auth)
                #expect(String(buffer: listed.body).contains("\"notes\""))
                // The match stage's table is loaded and holds the subscription before any change comes.
                let loaded = try await Wait.until(timeout: .seconds(60)) { table.isReady && table.count == 1 }
                #expect(loaded, "the subscription table is loaded with the subscription")
                _ = try await producer.send((1...5).map {
                    OutgoingMessage(topic: catalog.name(TopicCatalog.recordChanges), key: "zone", value: change("c\($0)"))
                })

                // Page through with resultsLimit 2 until all five arrived: each exactly once, in order.
                var sequences: [Int] = []
                var changeToken: String?
                try await Wait.until(timeout: .seconds(60), every: .milliseconds(100)) {
                    var moreComing = true
                    while moreComing, sequences.count < 5 {
                        var request: [String: Any] = ["resultsLimit": 2]
                        if let changeToken { request["serverChangeToken"] = changeToken }
                        let response = try await client.execute(
                            uri: "\(base)/notifications/changes", method: .post, headers: auth,
                            body: ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: request)))
                        #expect(response.status == .ok)
                        let page = try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
                        sequences += (page["notifications"] as? [[String: Any]] ?? []).compactMap { $0["sequence"] as? Int }
                        changeToken = page["serverChangeToken"] as? String
                        moreComing = page["moreComing"] as? Bool == true
                    }
                    return sequences.count >= 5
                }
                #expect(sequences == [1, 2, 3, 4, 5])

                // A token altered by one character, or used by another user, is refused.
                let tampered = String(changeToken!.dropLast()) + (changeToken!.hasSuffix("A") ? "B" : "A")
                let refused = try await client.execute(
                    uri: "\(base)/notifications/changes", method: .post, headers: auth,
                    body: ByteBuffer(string: #"{"serverChangeToken": "\#(tampered)"}"#))
                #expect(refused.status == .badRequest)
                let foreign = try await client.execute(
                    uri: "\(base)/notifications/changes", method: .post, headers: other,
                    body: ByteBuffer(string: #"{"serverChangeToken": "\#(changeToken!)"}"#))
                #expect(foreign.status == .badRequest)

                // The badge is the compose stage's count; a reset goes through Kafka and takes effect.
                let badge = try await client.execute(uri: "\(base)/badge", method: .get, headers: auth)
                #expect(String(buffer: badge.body).contains("5"))
                let reset = try await client.execute(uri: "\(base)/badge", method: .post, headers: auth, body: ByteBuffer(string: #"{"badge": 0}"#))
                #expect(reset.status == .accepted)
                let zeroed = try await Wait.until(timeout: .seconds(60), every: .milliseconds(100)) {
                    try await store.badge(recipient: "_u1", container: container) == 0
                }
                #expect(zeroed)
            }
        }
        await producer.close()
    }
}
