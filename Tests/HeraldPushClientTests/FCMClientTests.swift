import Foundation
import HeraldModel
import HeraldPush
import HeraldPushClient
import Testing

@Suite("FCM client against the stand-in", .timeLimit(.minutes(5)))
struct FCMClientTests {
    @Test("an Android push is posted to the project's messages:send with a Bearer token from the grant")
    func deliversAndroid() async throws {
        try await StandInFixture.with { fixture in
            let response = try await fixture.withFCM { client in await client.send(StandInFixture.fcmRequest()) }
            guard case .accepted(let name) = response else {
                Issue.record("expected accepted, got \(response)")
                return
            }
            #expect(name?.hasPrefix("projects/herald-standin/messages/") == true)
            let paths = fixture.standIn.requests.map(\.path)
            #expect(paths == ["/token", "/v1/projects/herald-standin/messages:send"])
            let sent = try #require(fixture.standIn.requests.last)
            #expect(sent.headers["authorization"] == "Bearer standin-access-1")
            let message = try JSONDecoder().decode(JSONValue.self, from: Data(sent.body))["message"]
            #expect(message?["token"] == "fcm-token-1")
            #expect(message?["notification"] == ["body": "Changed"])
        }
    }

    @Test("an iOS device through FCM gets message.apns with the payload")
    func deliversIOS() async throws {
        try await StandInFixture.with { fixture in
            let request = StandInFixture.fcmRequest(topic: "com.example.notes")
            _ = try await fixture.withFCM { client in await client.send(request) }
            let sent = try #require(fixture.standIn.requests.last)
            let message = try JSONDecoder().decode(JSONValue.self, from: Data(sent.body))["message"]
            #expect(message?["apns"]?["payload"] == request.apns.payload)
            #expect(message?["apns"]?["headers"]?["apns-id"] == .string(request.notificationID))
        }
    }

    @Test("the access token is fetched once and reused")
    func reusesAccessToken() async throws {
        try await StandInFixture.with { fixture in
            try await fixture.withFCM { client in
                for _ in 0..<5 { _ = await client.send(StandInFixture.fcmRequest()) }
            }
            #expect(fixture.standIn.accessTokensIssued == 1)
            #expect(fixture.standIn.received == 6)
        }
    }

    struct Row: Sendable, CustomTestStringConvertible {
        var answer: StandInAnswer
        var action: PushAction
        var testDescription: String { "\(answer) → \(action)" }
    }

    static let rows: [Row] = [
        Row(answer: .unregistered, action: .removeDevice(reason: "UNREGISTERED", observedAt: 1_800_000_000_000)),
        Row(answer: .badDeviceToken, action: .removeDevice(reason: "INVALID_ARGUMENT message.token", observedAt: 1_800_000_000_000)),
        Row(answer: .wrongTopic, action: .removeDevice(reason: "SENDER_ID_MISMATCH", observedAt: 1_800_000_000_000)),
        Row(answer: .tooManyRequests(retryAfterSeconds: 30), action: .retry(afterSeconds: 30)),
        Row(answer: .unavailable(retryAfterSeconds: 5), action: .retry(afterSeconds: 5)),
        Row(answer: .forbidden, action: .pauseApp(reason: "403 THIRD_PARTY_AUTH_ERROR")),
    ]

    @Test("each FCM refusal maps to its action", arguments: rows)
    func refusals(_ row: Row) async throws {
        try await StandInFixture.with { fixture in
            let request = StandInFixture.fcmRequest()
            fixture.standIn.answer(row.answer, forToken: request.device.token)
            let response = try await fixture.withFCM { client in await client.send(request) }
            #expect(PushAction(response: response, platform: .fcm) == row.action)
        }
    }

    @Test("a service account whose key the token endpoint does not know pauses the app (401)")
    func wrongServiceAccount() async throws {
        try await StandInFixture.with { fixture in
            let stranger = try StandInAccounts(projectID: "herald-standin")
            var configuration = FCMClient.Configuration()
            configuration.baseURL = fixture.standIn.baseURL
            configuration.caFile = fixture.caFile
            configuration.timeout = StandInFixture.loadedTimeout
            let client = try FCMClient(
                credentials: try stranger.fcmCredentials(tokenURL: fixture.standIn.tokenURL), configuration: configuration,
                logger: .init(label: "fcm"))
            let response = await client.send(StandInFixture.fcmRequest())
            await client.shutdown()
            #expect(PushAction(response: response, platform: .fcm) == .pauseApp(reason: "401 UNAUTHENTICATED"))
        }
    }
}
