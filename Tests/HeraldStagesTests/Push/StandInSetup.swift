import Foundation
import HeraldApp
import HeraldPushClient
import HeraldStages
import HeraldTestSupport
import Hummingbird
import Logging
import Testing

/// A push stand-in started for one test, its CA file, and the push settings that point a
/// runtime's clients at it, as `--apns-…`, `--fcm-…` and `--push-ca-file` do.
struct StandInSetup {
    let standIn: PushStandIn
    let accounts: StandInAccounts
    let caFile: String

    /// Runs `body` with a new stand-in whose clock runs 5 s ahead (so its 410 timestamps
    /// come after a registration made just before); stops it and removes the CA file after.
    static func with<T>(_ body: (StandInSetup) async throws -> T) async throws -> T {
        let accounts = try StandInAccounts()
        let standIn = try await PushStandIn.start(
            accounts: accounts, logger: Logger(label: "stand-in"), now: { Int64(Date().timeIntervalSince1970) + 5 })
        let caFile = FileManager.default.temporaryDirectory.appendingPathComponent("herald-standin-\(UUID()).pem").path
        defer { try? FileManager.default.removeItem(atPath: caFile) }
        do {
            try standIn.writeCAFile(to: caFile)
            let result = try await body(StandInSetup(standIn: standIn, accounts: accounts, caFile: caFile))
            await standIn.stop()
            return result
        } catch {
            await standIn.stop()
            throw error
        }
    }

    /// Both providers' credentials (the key and the service account as text, as the
    /// environment variables give them) and endpoints, all at the stand-in.
    func configure(_ push: inout PushConfiguration) {
        push.apnsKey = accounts.apnsPrivateKeyPEM
        push.apnsTeamID = accounts.teamID
        push.apnsKeyID = accounts.keyID
        push.fcmServiceAccount = String(decoding: accounts.serviceAccountJSON(tokenURL: standIn.tokenURL), as: UTF8.self)
        push.apnsProductionURL = standIn.baseURL
        push.apnsDevelopmentURL = standIn.baseURL
        push.fcmURL = standIn.baseURL
        push.caFile = caFile
    }

    /// The requests to FCM's `messages:send` so far.
    var fcmSends: [RecordedPush] { standIn.requests.filter { $0.path.hasSuffix("/messages:send") } }
}

extension StandInSetup {
    /// Through the runtime's API as `_u1`: registers `devices` (token and registration
    /// body), saves a query subscription on Notes, waits until the API's directory holds it and
    /// the push stage has taken in every registration, then produces one Note creation.
    static func registerAndCreateNote(
        _ devices: [(token: String, body: String)], fixture: PipelineFixture, runtime: HeraldRuntime, client: RuntimeHTTPClient
    ) async throws {
        let catalog = fixture.catalog
        let auth = try await RuntimeHTTPClient.headers(user: "_u1", container: PushMessages.container)
        let base = "/v1/containers/\(PushMessages.container)"
        let directory = try #require(runtime.directory)
        for (token, body) in devices {
            let device = try await client.execute(uri: "\(base)/devices/\(token)", method: .put, headers: auth, body: ByteBuffer(string: body))
            #expect(device.status == .ok, "\(String(buffer: device.body))")
        }
        let put = try await client.execute(
            uri: "\(base)/private/subscriptions/notes", method: .put, headers: auth,
            body: ByteBuffer(string: #"{"subscriptionType": "query", "query": {"recordType": "Note", "predicate": "TRUEPREDICATE"}, "firesOn": ["create"], "notificationInfo": {"alertBody": "New note"}}"#))
        #expect(put.status == .ok)
        #expect(try await Wait.until(timeout: .seconds(60)) { directory.isReady && (try? directory.count()) == 1 })
        let group = HeraldStage.push.groupID(prefix: catalog.prefix)
        #expect(try await fixture.waitUntilCommitted(group: group, [catalog.name(TopicCatalog.devices)], timeout: .seconds(60)))
        let producer = try fixture.producer()
        _ = try await producer.send([PushMessages.noteCreated(catalog: catalog)])
        await producer.close()
    }
}
