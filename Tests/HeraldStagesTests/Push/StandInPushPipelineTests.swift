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
@Suite("Device → push through the stand-in", .timeLimit(.minutes(3)))
struct StandInPushPipelineTests {
    private let container = PushMessages.container
    private let bundleID = PushMessages.bundleID

    @Test("a record change reaches the stand-in with Apple's headers and payload; a 410 token is removed")
    func pushThroughStandIn() async throws {
        let accounts = try StandInAccounts()
        // The stand-in's clock runs 5 s ahead so its 410 timestamp is after the registration.
        let standIn = try await PushStandIn.start(
            accounts: accounts, logger: Logger(label: "stand-in"), now: { Int64(Date().timeIntervalSince1970) + 5 })
        let caFile = FileManager.default.temporaryDirectory.appendingPathComponent("herald-standin-\(UUID()).pem").path
        defer { try? FileManager.default.removeItem(atPath: caFile) }
        do {
            try standIn.writeCAFile(to: caFile)
            try await run(standIn: standIn, accounts: accounts, caFile: caFile)
        } catch {
            await standIn.stop()
            throw error
        }
        await standIn.stop()
    }

    private func run(standIn: PushStandIn, accounts: StandInAccounts, caFile: String) async throws {
        let fixture = try await PipelineFixture()
        let catalog = fixture.catalog
        let producer = try fixture.producer()
        let auth = try await RuntimeHTTPClient.headers(user: "_u1", container: container)
        let base = "/v1/containers/\(container)"
        var configuration = fixture.runtimeConfiguration([.match, .compose, .reader, .push])
        configuration.push.apnsKey = accounts.apnsPrivateKeyPEM
        configuration.push.apnsTeamID = accounts.teamID
        configuration.push.apnsKeyID = accounts.keyID
        configuration.push.fcmServiceAccount = String(decoding: accounts.serviceAccountJSON(tokenURL: standIn.tokenURL), as: UTF8.self)
        configuration.push.apnsProductionURL = standIn.baseURL
        configuration.push.apnsDevelopmentURL = standIn.baseURL
        configuration.push.fcmURL = standIn.baseURL
        configuration.push.caFile = caFile
        defer { try? FileManager.default.removeItem(atPath: configuration.dataDirectory) }
        let phone = PushMessages.apnsToken(42)
        let gone = PushMessages.apnsToken(43)
        standIn.answer(.unregistered, forToken: gone)

        try await fixture.withRuntime(configuration) { runtime in
            let table = try #require(runtime.table)
            try await runtime.withHTTPClient { client in
                for token in [phone, gone] {
                    let device = try await client.execute(
                        uri: "\(base)/devices/\(token)", method: .put, headers: auth,
                        body: ByteBuffer(string: #"{"platform": "apns", "environment": "development", "topic": "\#(bundleID)"}"#))
                    #expect(device.status == .ok, "\(String(buffer: device.body))")
                }
                let put = try await client.execute(
                    uri: "\(base)/private/subscriptions/notes", method: .put, headers: auth,
                    body: ByteBuffer(string: #"{"subscriptionType": "query", "query": {"recordType": "Note", "predicate": "TRUEPREDICATE"}, "firesOn": ["create"], "notificationInfo": {"alertBody": "New note"}}"#))
                #expect(put.status == .ok)
                #expect(try await Wait.until(timeout: .seconds(60)) { table.isReady && table.count == 1 })
                let group = HeraldStage.push.groupID(prefix: catalog.prefix)
                #expect(try await fixture.waitUntilCommitted(group: group, [catalog.name(TopicCatalog.devices)], timeout: .seconds(60)))
                _ = try await producer.send([PushMessages.noteCreated(catalog: catalog)])
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
        await producer.close()
    }
}
