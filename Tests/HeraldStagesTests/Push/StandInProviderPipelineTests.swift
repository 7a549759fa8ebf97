import Foundation
import HeraldApp
import HeraldKafka
import HeraldPushClient
import HeraldStages
import HeraldTestSupport
import Logging
import Testing

/// The push stage as `herald run` builds it, against the stand-in: FCM end to end (the OAuth2
/// grant, `message.apns` for an iOS app, `notification` + `data` for an Android app), a 403
/// pausing the app with `/health/ready` naming it, and refusing to start without credentials.
@Suite("Push providers through the runtime", .timeLimit(.minutes(5)))
struct StandInProviderPipelineTests {
    private let bundleID = PushMessages.bundleID

    @Test("FCM devices get the push through the runtime: message.apns for iOS, notification and data for Android")
    func fcmEndToEnd() async throws {
        try await StandInSetup.with { setup in
            let fixture = try await PipelineFixture()
            var configuration = fixture.runtimeConfiguration([.match, .compose, .reader, .push])
            setup.configure(&configuration.push)
            defer { try? FileManager.default.removeItem(atPath: configuration.dataDirectory) }
            let iPhone = PushMessages.fcmToken(1)
            let android = PushMessages.fcmToken(2)
            try await fixture.withRuntime(configuration) { runtime in
                try await runtime.withHTTPClient { client in
                    try await StandInSetup.registerAndCreateNote(
                        [
                            (iPhone, #"{"platform": "fcm", "topic": "\#(bundleID)"}"#),
                            (android, #"{"platform": "fcm", "appID": "1:123:android:abc"}"#),
                        ], fixture: fixture, runtime: runtime, client: client)
                    let pushed = try await Wait.until(timeout: .seconds(60)) { setup.fcmSends.count >= 2 }
                    #expect(pushed, "log:\n\(fixture.recentLog.text)")
                }
            }
            // The service account's grant was verified by the stand-in's token endpoint.
            #expect(setup.standIn.accessTokensIssued >= 1)
            let sends = setup.fcmSends
            #expect(sends.count == 2 && sends.allSatisfy { $0.status == 200 }, "\(sends.map(\.printed))")
            #expect(sends.allSatisfy { $0.headers["authorization"]?.hasPrefix("Bearer standin-access-") == true })
            let ios = try #require(try message(to: iPhone, in: sends))
            let apns = try #require(ios["apns"] as? [String: Any])
            let headers = try #require(apns["headers"] as? [String: String])
            let notificationID = try #require(headers["apns-id"])
            #expect(headers["apns-push-type"] == "alert")
            let payload = try #require(apns["payload"] as? [String: Any])
            #expect((payload["aps"] as? [String: Any])?["alert"] != nil)
            #expect(((payload["ck"] as? [String: Any])?["nid"] as? String)?.lowercased() == notificationID.lowercased())
            #expect(ios["notification"] == nil)
            let droid = try #require(try message(to: android, in: sends))
            #expect(droid["apns"] == nil)
            let alert = try #require(droid["notification"] as? [String: String])
            #expect(alert["body"] == "New note")
            let data = try #require(droid["data"] as? [String: String])
            #expect(data["nid"]?.lowercased() == notificationID.lowercased())
            #expect(data["ck"]?.contains(#""nid""#) == true)
            #expect((droid["android"] as? [String: Any])?["priority"] as? String == "HIGH")
        }
    }

    @Test("a 403 from the provider pauses the app's pushes and /health/ready names it")
    func forbiddenPausesTheApp() async throws {
        try await StandInSetup.with { setup in
            let fixture = try await PipelineFixture()
            var configuration = fixture.runtimeConfiguration([.match, .compose, .reader, .push])
            setup.configure(&configuration.push)
            defer { try? FileManager.default.removeItem(atPath: configuration.dataDirectory) }
            let phone = PushMessages.apnsToken(7)
            setup.standIn.answer(.forbidden, forToken: phone)
            try await fixture.withRuntime(configuration) { runtime in
                try await runtime.withHTTPClient { client in
                    #expect(try await Wait.until(timeout: .seconds(60)) { runtime.readiness.isReady })
                    try await StandInSetup.registerAndCreateNote(
                        [(phone, #"{"platform": "apns", "environment": "production", "topic": "\#(bundleID)"}"#)],
                        fixture: fixture, runtime: runtime, client: client)
                    let condition = "push.app.apns:\(bundleID)"
                    let named = try await Wait.until(timeout: .seconds(60)) {
                        let ready = try await client.execute(uri: "/health/ready", method: .get)
                        let body = String(buffer: ready.body)
                        return ready.status == .serviceUnavailable && body.contains(condition) && body.contains("InvalidProviderToken")
                    }
                    #expect(named, "log:\n\(fixture.recentLog.text)")
                    #expect(runtime.readiness.conditions[condition] == false)
                }
            }
            let refused = setup.standIn.requests.filter { $0.path == "/3/device/\(phone)" }
            // Paused: the push waits for the pause to end instead of being sent again at once.
            #expect(refused.count == 1 && refused.first?.status == 403, "\(refused.map(\.printed))")
        }
    }

    @Test("without provider credentials the push stage refuses to start, naming the flags")
    func noCredentials() async throws {
        let fixture = try await PipelineFixture()
        let configuration = fixture.runtimeConfiguration([.push])
        let error = await #expect(throws: HeraldAppError.self) {
            try await HeraldApp.buildRuntime(
                configuration, environment: fixture.environment, catalog: fixture.catalog, logger: fixture.logger)
        }
        #expect(error?.setting == .pushCredentials)
        let text = error?.description ?? ""
        for flag in ["--apns-key-file", "--apns-team-id", "--apns-key-id", "--fcm-service-account-file", "$HERALD_APNS_KEY"] {
            #expect(text.contains(flag), "\(text)")
        }
        // Half of the APNs settings: the missing ones are named.
        var partial = configuration
        partial.push.apnsTeamID = "TEAM"
        let missing = await #expect(throws: HeraldAppError.self) {
            try await HeraldApp.buildRuntime(partial, environment: fixture.environment, catalog: fixture.catalog, logger: fixture.logger)
        }
        #expect(missing?.description.contains("missing --apns-key-file, --apns-key-id") == true, "\(missing?.description ?? "")")
    }

    @Test("a start that fails after the push stage's credentials are read leaves no provider client open")
    func failedStartClosesClients() async throws {
        let accounts = try StandInAccounts()
        let fixture = try await PipelineFixture()
        // The reader's data directory is a file: building the reader's store fails.
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("herald-not-a-dir-\(UUID())").path
        _ = FileManager.default.createFile(atPath: file, contents: Data("x".utf8))
        defer { try? FileManager.default.removeItem(atPath: file) }
        var configuration = fixture.runtimeConfiguration([.reader, .push], dataDirectory: file)
        configuration.push.apnsKey = accounts.apnsPrivateKeyPEM
        configuration.push.apnsTeamID = accounts.teamID
        configuration.push.apnsKeyID = accounts.keyID
        let error = await #expect(throws: HeraldAppError.self) {
            try await HeraldApp.buildRuntime(
                configuration, environment: fixture.environment, catalog: fixture.catalog, logger: fixture.logger)
        }
        #expect(error?.setting == .dataDirectory)
        // An HTTP client dropped without being shut down stops a debug build here
        // (async-http-client's deinit precondition): the push stage is built after every
        // step that can fail, so no client exists when one does.
    }

    /// The `message` of the FCM send addressed to `token`.
    private func message(to token: String, in sends: [RecordedPush]) throws -> [String: Any]? {
        for send in sends {
            let body = try JSONSerialization.jsonObject(with: Data(send.body)) as? [String: Any]
            if let message = body?["message"] as? [String: Any], message["token"] as? String == token { return message }
        }
        return nil
    }
}
