import Foundation
import HeraldApp
import HeraldKafka
import HeraldModel
import HeraldPushClient
import HeraldStages
import HeraldTestSupport
import Hummingbird
import Logging
import Testing

/// Issue 15's "done when" with the real clients: a user registers devices over HTTP, a
/// record changes, and the push reaches the APNs stand-in (TLS, its own CA, ES256 provider
/// token) with Apple's headers and the payload; a token the stand-in answers 410 is
/// pruned. Match, compose, reader (the API) and push run as `herald run` builds them, the
/// push stage's clients configured the way the flags configure them.
@Suite("Device → push through the stand-in", .timeLimit(.minutes(5)))
struct StandInPushPipelineTests {
    private let container = PushMessages.container
    private let bundleID = PushMessages.bundleID

    @Test("a record change reaches the stand-in with Apple's headers and payload; a 410 token is removed")
    func pushThroughStandIn() async throws {
        try await StandInSetup.with { setup in try await run(setup) }
    }

    private func run(_ setup: StandInSetup) async throws {
        let standIn = setup.standIn
        let fixture = try await PipelineFixture()
        let catalog = fixture.catalog
        let auth = try await RuntimeHTTPClient.headers(user: "_u1", container: container)
        let base = "/v1/containers/\(container)"
        var configuration = fixture.runtimeConfiguration([.match, .compose, .reader, .push])
        setup.configure(&configuration.push)
        defer { try? FileManager.default.removeItem(atPath: configuration.dataDirectory) }
        let phone = PushMessages.apnsToken(42)
        let gone = PushMessages.apnsToken(43)
        standIn.answer(.unregistered, forToken: gone)

        try await fixture.withRuntime(configuration) { runtime in
            try await runtime.withHTTPClient { client in
                let registration = #"{"platform": "apns", "environment": "development", "topic": "\#(bundleID)"}"#
                try await StandInSetup.registerAndCreateNote(
                    [(phone, registration), (gone, registration)], fixture: fixture, runtime: runtime, client: client)
                let pushed = try await Wait.until(timeout: .seconds(60)) { standIn.requests.count >= 2 }
                #expect(pushed, "log:\n\(fixture.recentLog.text)")
                // The 410 removes the device: the API (following `devices`) no longer lists it.
                let pruned = try await Wait.until(timeout: .seconds(60)) {
                    let listed = try await client.execute(uri: "\(base)/devices", method: .get, headers: auth)
                    let text = String(buffer: listed.body)
                    return text.contains(phone) && !text.contains(gone)
                }
                #expect(pruned, "log:\n\(fixture.recentLog.text)")
            }
        }
        let sent = try #require(standIn.requests.first { $0.path == "/3/device/\(phone)" }, "\(standIn.requests.map(\.printed))")
        #expect(sent.method == "POST" && sent.status == 200)
        #expect(sent.headers["apns-topic"] == bundleID)
        #expect(sent.headers["apns-push-type"] == "alert")
        #expect(sent.headers["apns-priority"] == "10")
        #expect(sent.headers["authorization"]?.hasPrefix("bearer ") == true)
        let apnsID = try #require(sent.headers["apns-id"])
        #expect(UUID(uuidString: apnsID) != nil)
        // The notification ID is the payload's `ck.nid` and the `apns-id`.
        let payload = try #require(try JSONSerialization.jsonObject(with: Data(sent.body)) as? [String: Any])
        let aps = try #require(payload["aps"] as? [String: Any])
        #expect(aps["alert"] != nil)
        let ck = try #require(payload["ck"] as? [String: Any])
        #expect((ck["nid"] as? String)?.lowercased() == apnsID.lowercased())
        let refused = try #require(standIn.requests.first { $0.path == "/3/device/\(gone)" })
        #expect(refused.status == 410 && refused.headers["apns-id"] == apnsID)
        // The tombstone on `devices`.
        let devices = try await fixture.reader.readToEnd(catalog.name(TopicCatalog.devices), partitions: catalog.partitions)
        #expect(devices.contains { $0.value == nil && ($0.keyString ?? "").hasSuffix("/\(gone)") })
        #expect(standIn.requests.count == 2)
    }
}
