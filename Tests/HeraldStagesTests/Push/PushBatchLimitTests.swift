import Foundation
import HeraldKafka
import HeraldModel
import HeraldPush
@testable import HeraldStages
import Testing

/// Limits within one batch of the push stage, with `PushActionRowTests`' processor and
/// transport double: a gone token is pushed once, pending retries per user are capped.
extension PushActionRowTests {
    @Test("a token the provider calls gone is pushed once in a batch: its later pushes are dropped with the device")
    func goneTokenOncePerBatch() async throws {
        let stage = processor()
        let gone = PushMessages.apnsToken(1), kept = PushMessages.apnsToken(2)
        try await feed(stage, [try messages.record(PushMessages.device(gone)), try messages.record(PushMessages.device(kept))])
        transport.script(gone, .rejected(status: 410, reason: "Unregistered", timestamp: 2_000, retryAfterSeconds: nil))
        let result = try await feed(
            stage, try ["n1", "n2", "n3"].map { try messages.record(PushMessages.notification($0)) }, from: 10)
        #expect(transport.pushes(to: gone) == ["n1"])
        #expect(transport.pushes(to: kept) == ["n1", "n2", "n3"])
        #expect(tombstones(result) == [PushMessages.device(gone).registryKey])
        #expect(deadLetterReasons(result).isEmpty)
        #expect(stage.state(of: "_u1")?.pending.isEmpty == true)
    }

    @Test("a 410 from before the registration does not stop the device's later pushes in the batch")
    func staleGoneKeepsPushing() async throws {
        let stage = processor()
        let token = PushMessages.apnsToken(3)
        try await feed(stage, [try messages.record(PushMessages.device(token, registeredAt: 5_000))])
        transport.script(token, .rejected(status: 410, reason: "Unregistered", timestamp: 2_000, retryAfterSeconds: nil))
        try await feed(stage, try ["n1", "n2"].map { try messages.record(PushMessages.notification($0)) }, from: 10)
        #expect(transport.pushes(to: token) == ["n1", "n2"])
    }

    @Test("a user's pending retries are capped: past the cap the oldest is dead-lettered")
    func pendingCap() async throws {
        let stage = processor(maxPending: 2)
        let token = PushMessages.apnsToken(4)
        try await feed(stage, [try messages.record(PushMessages.device(token))])
        let unavailable = ProviderResponse.rejected(status: 503, reason: "ServiceUnavailable", timestamp: nil, retryAfterSeconds: nil)
        transport.script(token, unavailable, unavailable, unavailable)
        let result = try await feed(
            stage, try ["n1", "n2", "n3"].map { try messages.record(PushMessages.notification($0)) }, from: 10)
        #expect(transport.pushes(to: token) == ["n1", "n2", "n3"])
        #expect(stage.state(of: "_u1")?.pending.map(\.notificationID) == ["n2", "n3"])
        let reasons = deadLetterReasons(result)
        #expect(reasons.count == 1)
        #expect(reasons.first?.contains("notification n1") == true && reasons.first?.contains("more than 2 pushes") == true, "\(reasons)")
    }
}
