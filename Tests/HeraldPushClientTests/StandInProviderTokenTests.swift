import Foundation
import HeraldPush
import HeraldPushClient
import Logging
import Testing

/// The stand-in verifies each distinct provider token once and remembers it: a token signed
/// by another key is still refused, after a good one was accepted and remembered.
@Suite("Stand-in provider-token checks", .timeLimit(.minutes(5)))
struct StandInProviderTokenTests {
    @Test("a token signed with another key is refused as InvalidProviderToken, before and after a good one is remembered")
    func otherKeyRefused() async throws {
        try await StandInFixture.with { fixture in
            let impostor = try StandInAccounts()
            var configuration = APNsClient.Configuration()
            configuration.productionURL = fixture.standIn.baseURL
            configuration.developmentURL = fixture.standIn.baseURL
            configuration.caFile = fixture.caFile
            configuration.timeout = StandInFixture.loadedTimeout
            let forged = try APNsClient(
                credentials: try impostor.apnsCredentials(), configuration: configuration, logger: Logger(label: "forged"),
                now: { [clock = fixture.clock] in clock.seconds })
            let request = StandInFixture.apnsRequest()
            let first = await forged.send(request)
            let good = try await fixture.withAPNs { client in [await client.send(request), await client.send(request)] }
            let again = await forged.send(request)
            await forged.shutdown()
            let refused = ProviderResponse.rejected(status: 403, reason: "InvalidProviderToken", timestamp: nil, retryAfterSeconds: nil)
            #expect(first == refused)
            #expect(good == [.accepted(providerID: request.notificationID), .accepted(providerID: request.notificationID)])
            #expect(again == refused)
            #expect(fixture.standIn.providerTokensSeen == 2)
        }
    }
}
