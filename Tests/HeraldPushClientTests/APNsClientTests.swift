import Foundation
import HeraldModel
import HeraldPush
import HeraldPushClient
import Logging
import Testing

@Suite("APNs client against the stand-in", .timeLimit(.minutes(5)))
struct APNsClientTests {
    @Test("a push arrives with Apple's path, headers and payload, and is accepted with its apns-id")
    func delivers() async throws {
        try await StandInFixture.with { fixture in
            let request = StandInFixture.apnsRequest()
            let response = try await fixture.withAPNs { client in await client.send(request) }
            #expect(response == .accepted(providerID: request.notificationID))
            let recorded = try #require(fixture.standIn.requests.first)
            #expect(recorded.method == "POST")
            #expect(recorded.path == "/3/device/" + request.device.token)
            #expect(recorded.headers["apns-topic"] == "com.example.notes")
            #expect(recorded.headers["apns-push-type"] == "alert")
            #expect(recorded.headers["apns-priority"] == "10")
            #expect(recorded.headers["apns-expiration"] == "1900000000")
            #expect(recorded.headers["apns-id"] == request.notificationID)
            #expect(recorded.headers["authorization"]?.hasPrefix("bearer ") == true)
            #expect(try JSONDecoder().decode(JSONValue.self, from: Data(recorded.body)) == request.apns.payload)
        }
    }

    struct Row: Sendable, CustomTestStringConvertible {
        var answer: StandInAnswer
        var status: Int
        var reason: String
        var action: PushAction
        var testDescription: String { "\(answer) → \(action)" }
    }

    static let rows: [Row] = [
        Row(answer: .unregistered, status: 410, reason: "Unregistered", action: .removeDevice(reason: "Unregistered", observedAt: 1_800_000_000_000)),
        Row(answer: .badDeviceToken, status: 400, reason: "BadDeviceToken", action: .removeDevice(reason: "BadDeviceToken", observedAt: nil)),
        Row(
            answer: .wrongTopic, status: 400, reason: "DeviceTokenNotForTopic",
            action: .removeDevice(reason: "DeviceTokenNotForTopic", observedAt: nil)),
        Row(answer: .tooManyRequests(retryAfterSeconds: 12), status: 429, reason: "TooManyRequests", action: .retry(afterSeconds: 12)),
        Row(answer: .unavailable(retryAfterSeconds: nil), status: 503, reason: "ServiceUnavailable", action: .retry(afterSeconds: nil)),
        Row(answer: .internalError, status: 500, reason: "InternalServerError", action: .retry(afterSeconds: nil)),
        Row(answer: .forbidden, status: 403, reason: "InvalidProviderToken", action: .pauseApp(reason: "403 InvalidProviderToken")),
    ]

    @Test("each refusal the stand-in is told to give comes back as the provider's answer and its action", arguments: rows)
    func refusals(_ row: Row) async throws {
        try await StandInFixture.with { fixture in
            let request = StandInFixture.apnsRequest()
            fixture.standIn.answer(row.answer, forToken: request.device.token)
            let response = try await fixture.withAPNs { client in await client.send(request) }
            guard case .rejected(let status, let reason, _, _) = response else {
                Issue.record("expected a refusal, got \(response)")
                return
            }
            #expect(status == row.status)
            #expect(reason == row.reason)
            #expect(PushAction(response: response, platform: .apns) == row.action)
        }
    }

    @Test("a push breaking Apple's rules is refused without reaching the provider")
    func refusedLocally() async throws {
        try await StandInFixture.with { fixture in
            let request = StandInFixture.apnsRequest(id: "not-a-uuid")
            let response = try await fixture.withAPNs { client in await client.send(request) }
            #expect(response == .rejected(status: 400, reason: "BadMessageId", timestamp: nil, retryAfterSeconds: nil))
            #expect(fixture.standIn.received == 0)
        }
    }

    @Test("many concurrent pushes share one provider token, minted once")
    func sharesProviderToken() async throws {
        try await StandInFixture.with { fixture in
            let (responses, minted) = try await fixture.withAPNs { client in
                let responses = await withTaskGroup(of: ProviderResponse.self) { group in
                    for _ in 0..<200 {
                        let id = UUID().uuidString.lowercased()
                        group.addTask { await client.send(StandInFixture.apnsRequest(id: id)) }
                    }
                    return await group.reduce(into: []) { $0.append($1) }
                }
                return (responses, await client.providerTokensMinted)
            }
            #expect(responses.count == 200)
            #expect(responses.allSatisfy { if case .accepted = $0 { true } else { false } })
            #expect(minted == 1)
            #expect(fixture.standIn.providerTokensSeen == 1)
        }
    }

    @Test("the provider token is replaced after 50 minutes, not before")
    func refreshesProviderToken() async throws {
        try await StandInFixture.with { fixture in
            let minted = try await fixture.withAPNs { client in
                _ = await client.send(StandInFixture.apnsRequest())
                fixture.clock.advance(by: 49 * 60)
                _ = await client.send(StandInFixture.apnsRequest())
                let before = await client.providerTokensMinted
                fixture.clock.advance(by: 2 * 60)
                let response = await client.send(StandInFixture.apnsRequest())
                #expect(response == .accepted(providerID: StandInFixture.apnsRequest().notificationID))
                return (before, await client.providerTokensMinted)
            }
            #expect(minted.0 == 1)
            #expect(minted.1 == 2)
        }
    }

    @Test("a provider that cannot be reached is unreachable, which is retried")
    func unreachable() async throws {
        let accounts = try StandInFixture.accounts.get()
        var configuration = APNsClient.Configuration()
        configuration.productionURL = "https://127.0.0.1:1"
        configuration.timeout = .seconds(5)
        let client = try APNsClient(
            credentials: try accounts.apnsCredentials(), configuration: configuration, logger: Logger(label: "apns"))
        let response = await client.send(StandInFixture.apnsRequest())
        await client.shutdown()
        guard case .unreachable = response else {
            Issue.record("expected unreachable, got \(response)")
            return
        }
        #expect(PushAction(response: response, platform: .apns) == .retry(afterSeconds: nil))
    }

    @Test("without the stand-in's CA the TLS handshake fails: unreachable, nothing sent")
    func untrustedServer() async throws {
        try await StandInFixture.with { fixture in
            let response = try await fixture.withAPNs({ $0.caFile = nil }) { client in
                await client.send(StandInFixture.apnsRequest())
            }
            guard case .unreachable = response else {
                Issue.record("expected unreachable, got \(response)")
                return
            }
            #expect(fixture.standIn.received == 0)
        }
    }

    @Test("a CA file that is not PEM is refused at start, naming the file")
    func badCAFile() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("not-a-ca-\(UUID()).pem").path
        try Data("hello".utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        var configuration = APNsClient.Configuration()
        configuration.caFile = path
        let error = #expect(throws: PushClientError.self) {
            _ = try APNsClient(
                credentials: try StandInFixture.accounts.get().apnsCredentials(), configuration: configuration,
                logger: Logger(label: "apns"))
        }
        #expect(error?.source == path)
    }
}
