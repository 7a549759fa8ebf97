import Foundation
import HeraldApp
import HeraldKafka
import HeraldModel
import HeraldStages
import HeraldTestSupport
import Hummingbird
import Testing

/// The issue's "done when": a user registers a device over HTTP, a record changes, and the
/// push reaches the provider (here the in-memory transport) with the notification's APNs
/// payload — match, compose, reader (the API) and push in the process `herald run` builds.
@Suite("Device → push pipeline", .timeLimit(.minutes(5)))
struct DevicePushPipelineTests {
    private let container = PushMessages.container

    @Test("a device registered over HTTP receives the push of a record change; the excluded one does not")
    func registerThenPush() async throws {
        let fixture = try await PipelineFixture()
        let catalog = fixture.catalog
        let producer = try fixture.producer()
        let transport = PushTransportDouble()
        let auth = try await RuntimeHTTPClient.headers(user: "_u1", container: container)
        let base = "/v1/containers/\(container)"
        var configuration = fixture.runtimeConfiguration([.match, .compose, .reader, .push])
        configuration.push.transports = PushTransports(transport)
        defer { try? FileManager.default.removeItem(atPath: configuration.dataDirectory) }
        let phone = PushMessages.apnsToken(42)

        try await fixture.withRuntime(configuration) { runtime in
            let directory = try #require(runtime.directory)
            try await runtime.withHTTPClient { client in
                let device = try await client.execute(
                    uri: "\(base)/devices/\(phone)", method: .put, headers: auth,
                    body: ByteBuffer(string: #"{"platform": "apns", "environment": "development", "topic": "com.example.notes"}"#))
                #expect(device.status == .ok, "\(String(buffer: device.body))")
                let listed = try await client.execute(uri: "\(base)/devices", method: .get, headers: auth)
                #expect(String(buffer: listed.body).contains(phone))
                let put = try await client.execute(
                    uri: "\(base)/private/subscriptions/notes", method: .put, headers: auth,
                    body: ByteBuffer(string: #"{"subscriptionType": "query", "query": {"recordType": "Note", "predicate": "TRUEPREDICATE"}, "firesOn": ["create"], "notificationInfo": {"alertBody": "New note"}}"#))
                #expect(put.status == .ok)
                let loaded = try await Wait.until(timeout: .seconds(60)) { directory.isReady && (try? directory.count()) == 1 }
                #expect(loaded)
                // The push stage has the device before the change comes.
                let group = HeraldStage.push.groupID(prefix: catalog.prefix)
                #expect(try await fixture.waitUntilCommitted(group: group, [catalog.name(TopicCatalog.devices)], timeout: .seconds(60)))
                _ = try await producer.send([PushMessages.noteCreated(catalog: catalog)])
                let pushed = try await Wait.until(timeout: .seconds(60)) { !transport.sent.isEmpty }
                #expect(pushed, "log:\n\(fixture.recentLog.text)")
            }
        }
        let request = try #require(transport.sent.first)
        #expect(transport.sent.count == 1)
        #expect(request.device.token == phone && request.device.environment == .development)
        #expect(request.apns.pushType == .alert)
        if case .object(let payload) = request.apns.payload, case .object(let aps)? = payload["aps"] {
            #expect(aps["alert"] != nil)
        } else {
            Issue.record("the push has no aps: \(request.apns.payload)")
        }
        await producer.close()
    }
}
