import Foundation
import HeraldKafka
import HeraldModel
import HeraldPush
@testable import HeraldStages
import HeraldTestSupport
import Testing

/// The push stage's processor fed directly (no broker): which devices a notification goes
/// to, and what each provider answer does. (`@testable`: the initializer without a
/// `StageContext`, whose producer needs a broker.)
@Suite("Push stage: targets and provider answers")
struct PushActionRowTests {
    let catalog = TopicCatalog()
    let messages = PushMessages(catalog: TopicCatalog())
    let transport = PushTransportDouble()
    let clock = VirtualClock(10_000)
    let readiness = Readiness()

    func processor(maxDevices: Int = 20, maxRetries: Int = 8, maxPending: Int = 1000, maxConcurrentSends: Int? = nil) -> PushProcessor {
        var settings = PushProcessor.Settings()
        if let maxConcurrentSends { settings.maxConcurrentSends = maxConcurrentSends }
        settings.maxPendingPerUser = maxPending
        settings.rules.maxDevicesPerUser = maxDevices
        settings.retry.maximumAttempts = maxRetries
        let clock = clock
        return PushProcessor(
            topics: catalog.names, partitions: catalog.partitions, transports: PushTransports(transport), settings: settings,
            changelog: ChangelogReader { throw PipelineError(code: .restore, reason: "no restore in this test") },
            readiness: readiness, now: { clock.now })
    }

    /// Processes records as consecutive offsets from `offset`, then reports them delivered.
    @discardableResult
    func feed(_ processor: PushProcessor, _ records: [OutgoingMessage], from offset: Int64 = 0) async throws -> StageResult {
        let batch = records.enumerated().map { messages.consumed($1, offset: offset + Int64($0)) }
        let result = try await processor.process(batch)
        await processor.delivered(batch)
        return result
    }

    func tick(_ processor: PushProcessor) async throws -> StageResult {
        let result = try await processor.tick()
        await processor.delivered([])
        return result
    }

    func tombstones(_ result: StageResult) -> [String] {
        result.outputs.filter { $0.topic == catalog.names.devices && $0.value == nil }.compactMap { $0.key.map { String(decoding: $0, as: UTF8.self) } }
    }

    func deadLetterReasons(_ result: StageResult) -> [String] {
        result.outputs.filter { $0.topic == catalog.names.deadLetters }
            .compactMap { $0.headers.first { $0.name == DeadLetter.reasonHeader }.map { String(decoding: $0.value ?? Data(), as: UTF8.self) } }
    }

    @Test("a notification goes to each device of its container but the excluded one; readNotification and read ones never")
    func targets() async throws {
        let stage = processor()
        let a = PushMessages.apnsToken(1), b = PushMessages.apnsToken(2), f = PushMessages.fcmToken(3)
        var elsewhere = PushMessages.device(PushMessages.apnsToken(4))
        elsewhere.container = "iCloud.other"
        try await feed(stage, [
            try messages.record(PushMessages.device(a)), try messages.record(PushMessages.device(b)),
            try messages.record(PushMessages.device(f, platform: .fcm)), try messages.record(elsewhere),
        ])
        let read = NotificationRead(recipient: "_u1", containerIdentifier: PushMessages.container, notificationIDs: ["n4"], readAt: 1)
        let readRecord = OutgoingMessage(
            topic: catalog.names.notificationReads, partition: messages.partition(of: "_u1"), key: "_u1", value: try WireCodec().encode(read))
        try await feed(stage, [
            try messages.record(PushMessages.notification("n1", excluding: b)),
            try messages.record(PushMessages.notification("n2", type: .readNotification)),
            readRecord,
            try messages.record(PushMessages.notification("n4")),
            try messages.record(PushMessages.notification("n5")),
        ], from: 10)
        #expect(transport.pushes(to: a) == ["n1", "n5"])
        #expect(transport.pushes(to: b) == ["n5"])
        #expect(transport.pushes(to: f) == ["n1", "n5"])
        #expect(transport.pushes(to: PushMessages.apnsToken(4)).isEmpty)
        let expiration = transport.sent.first { $0.device.token == a }.map(\.expiration)
        #expect(expiration == 86_401)
    }

    @Test("the same notification is never pushed twice: its offset replayed, or a copy under the same ID")
    func dedup() async throws {
        let stage = processor()
        let a = PushMessages.apnsToken(1)
        try await feed(stage, [try messages.record(PushMessages.device(a))])
        let n1 = try messages.record(PushMessages.notification("n1"))
        try await feed(stage, [n1], from: 5)
        try await feed(stage, [n1], from: 5)
        try await feed(stage, [n1], from: 9)
        #expect(transport.pushes(to: a) == ["n1"])
    }

    @Test("410 after the registration, BadDeviceToken, DeviceTokenNotForTopic, FCM UNREGISTERED and a bad message.token remove the device with a tombstone",
          arguments: [
            (ProviderResponse.rejected(status: 410, reason: "Unregistered", timestamp: 2_000, retryAfterSeconds: nil), Device.Platform.apns),
            (.rejected(status: 400, reason: "BadDeviceToken", timestamp: nil, retryAfterSeconds: nil), .apns),
            (.rejected(status: 400, reason: "DeviceTokenNotForTopic", timestamp: nil, retryAfterSeconds: nil), .apns),
            (.rejected(status: 404, reason: "UNREGISTERED", timestamp: nil, retryAfterSeconds: nil), .fcm),
            (.rejected(status: 400, reason: "INVALID_ARGUMENT" + FCMError.tokenReasonSuffix, timestamp: nil, retryAfterSeconds: nil), .fcm),
          ])
    func removal(response: ProviderResponse, platform: Device.Platform) async throws {
        let stage = processor()
        let token = platform == .apns ? PushMessages.apnsToken(7) : PushMessages.fcmToken(7)
        let device = PushMessages.device(token, platform: platform, registeredAt: 1_000)
        try await feed(stage, [try messages.record(device)])
        transport.script(token, response)
        let result = try await feed(stage, [try messages.record(PushMessages.notification("n1"))], from: 3)
        #expect(tombstones(result) == [device.registryKey])
        #expect(stage.state(of: "_u1")?.devices.isEmpty == true)
        try await feed(stage, [try messages.record(PushMessages.notification("n2"))], from: 4)
        #expect(transport.pushes(to: token) == ["n1"])
    }

    @Test("a 410 the provider observed before the device's (re-)registration keeps the device")
    func staleUnregistered() async throws {
        let stage = processor()
        let token = PushMessages.apnsToken(8)
        try await feed(stage, [try messages.record(PushMessages.device(token, registeredAt: 5_000))])
        transport.script(token, .rejected(status: 410, reason: "Unregistered", timestamp: 4_000, retryAfterSeconds: nil))
        let result = try await feed(stage, [try messages.record(PushMessages.notification("n1"))], from: 3)
        #expect(tombstones(result).isEmpty)
        #expect(stage.state(of: "_u1")?.devices.count == 1)
    }

    @Test("429 with Retry-After, 503 and an unreachable provider are retried by the tick, not in the batch",
          arguments: [
            ProviderResponse.rejected(status: 429, reason: "TooManyRequests", timestamp: nil, retryAfterSeconds: 30),
            .rejected(status: 503, reason: "ServiceUnavailable", timestamp: nil, retryAfterSeconds: nil),
            .rejected(status: 500, reason: "InternalServerError", timestamp: nil, retryAfterSeconds: nil),
            .unreachable("connection refused"),
          ])
    func retry(response: ProviderResponse) async throws {
        let stage = processor()
        let token = PushMessages.apnsToken(9)
        try await feed(stage, [try messages.record(PushMessages.device(token))])
        transport.script(token, response)
        try await feed(stage, [try messages.record(PushMessages.notification("n1"))], from: 3)
        let pending = try #require(stage.state(of: "_u1")?.pending.first)
        #expect(pending.attempts == 1 && pending.notificationID == "n1")
        if case .rejected(429, _, _, _) = response { #expect(pending.due == clock.now + 30_000) }
        // Not due yet: nothing is sent.
        _ = try await tick(stage)
        #expect(transport.pushes(to: token) == ["n1"])
        clock.set(pending.due)
        _ = try await tick(stage)
        #expect(transport.pushes(to: token) == ["n1", "n1"])
        #expect(stage.state(of: "_u1")?.pending.isEmpty == true)
        // A later notification still goes out once.
        try await feed(stage, [try messages.record(PushMessages.notification("n2"))], from: 4)
        #expect(transport.pushes(to: token) == ["n1", "n1", "n2"])
    }

    @Test("a push retried until the attempts run out is dead-lettered with the last reason")
    func retriesExhausted() async throws {
        let stage = processor(maxRetries: 1)
        let token = PushMessages.apnsToken(10)
        try await feed(stage, [try messages.record(PushMessages.device(token))])
        let busy = ProviderResponse.rejected(status: 503, reason: "ServiceUnavailable", timestamp: nil, retryAfterSeconds: 1)
        transport.script(token, busy, busy)
        try await feed(stage, [try messages.record(PushMessages.notification("n1"))], from: 3)
        clock.advance(by: 1_000)
        let result = try await tick(stage)
        #expect(deadLetterReasons(result).count == 1)
        #expect(deadLetterReasons(result).first?.contains("retries exhausted after 2 attempts: 503 ServiceUnavailable") == true)
        #expect(stage.state(of: "_u1")?.pending.isEmpty == true)
    }

    @Test("a permanent refusal is dead-lettered with the provider's reason; the device stays",
          arguments: [
            (ProviderResponse.rejected(status: 413, reason: "PayloadTooLarge", timestamp: nil, retryAfterSeconds: nil), Device.Platform.apns),
            // FCM's INVALID_ARGUMENT about the message, not the token: the device is fine.
            (.rejected(status: 400, reason: "INVALID_ARGUMENT", timestamp: nil, retryAfterSeconds: nil), .fcm),
          ])
    func deadLetter(response: ProviderResponse, platform: Device.Platform) async throws {
        let stage = processor()
        let token = platform == .apns ? PushMessages.apnsToken(11) : PushMessages.fcmToken(11)
        try await feed(stage, [try messages.record(PushMessages.device(token, platform: platform))])
        transport.script(token, response)
        let result = try await feed(stage, [try messages.record(PushMessages.notification("n1"))], from: 3)
        guard case .rejected(let status, let reason, _, _) = response else { return }
        #expect(deadLetterReasons(result).count == 1)
        #expect(deadLetterReasons(result).first?.contains("\(status) \(reason)") == true)
        #expect(stage.state(of: "_u1")?.devices.count == 1)
    }

    @Test("403 pauses the app: /health/ready says why, its pushes wait, and they go out once the pause is over")
    func pause() async throws {
        let stage = processor()
        let token = PushMessages.apnsToken(12)
        try await feed(stage, [try messages.record(PushMessages.device(token))])
        transport.script(token, .rejected(status: 403, reason: "InvalidProviderToken", timestamp: nil, retryAfterSeconds: nil))
        try await feed(stage, [try messages.record(PushMessages.notification("n1"))], from: 3)
        let condition = "push.app.apns:\(PushMessages.bundleID)"
        #expect(readiness.conditions[condition] == false)
        #expect(readiness.reasons[condition]?.contains("InvalidProviderToken") == true)
        try await feed(stage, [try messages.record(PushMessages.notification("n2"))], from: 4)
        #expect(transport.pushes(to: token) == ["n1"])
        clock.advance(by: 300_000)
        _ = try await tick(stage)
        #expect(Set(transport.pushes(to: token)) == ["n1", "n2"] && transport.pushes(to: token).count == 3)
        #expect(readiness.conditions[condition] == true)
    }

    @Test("once a 403 pauses an app, the batch's other pushes of that app are not sent: they wait with the pause")
    func pauseStopsTheBatch() async throws {
        let stage = processor(maxConcurrentSends: 1)
        let tokens = [PushMessages.apnsToken(21), PushMessages.apnsToken(22), PushMessages.apnsToken(23)]
        try await feed(stage, try tokens.map { try messages.record(PushMessages.device($0)) })
        for token in tokens {
            transport.script(token, .rejected(status: 403, reason: "InvalidProviderToken", timestamp: nil, retryAfterSeconds: nil))
        }
        try await feed(stage, [try messages.record(PushMessages.notification("n1"))], from: 3)
        #expect(transport.sent.count == 1)
        #expect(stage.state(of: "_u1")?.pending.count == 3)
        #expect(readiness.conditions["push.app.apns:\(PushMessages.bundleID)"] == false)
    }

    @Test("past the per-user cap the oldest registration is dropped with a tombstone")
    func cap() async throws {
        let stage = processor(maxDevices: 2)
        let devices = (1...3).map { PushMessages.device(PushMessages.apnsToken($0), registeredAt: Int64(1_000 * $0)) }
        let result = try await feed(stage, try devices.map { try messages.record($0) })
        #expect(tombstones(result) == [devices[0].registryKey])
        #expect(Set(stage.state(of: "_u1")?.devices.values.map(\.token) ?? []) == [devices[1].token, devices[2].token])
    }

    @Test("bad devices records are rejected naming the field; a misplaced one names its partition")
    func invalidDevices() async throws {
        let stage = processor()
        var shortToken = PushMessages.device("abc")
        shortToken.token = "abc"
        var noTopic = PushMessages.device(PushMessages.apnsToken(1))
        noTopic.topic = nil
        var misplaced = try messages.record(PushMessages.device(PushMessages.apnsToken(2)))
        misplaced.partition = (misplaced.partition! + 1) % catalog.partitions
        let result = try await feed(stage, [try messages.record(shortToken), try messages.record(noTopic), misplaced])
        let reasons = result.rejections.map(\.reason.description)
        #expect(reasons.count == 3)
        #expect(reasons[0].contains("INVALID_TOKEN token"))
        #expect(reasons[1].contains("INVALID_FIELD topic"))
        #expect(reasons[2].contains("belongs on partition"))
    }

    @Test("a notification read while its push waits for a retry is not pushed again")
    func readWhilePending() async throws {
        let stage = processor()
        let token = PushMessages.apnsToken(13)
        try await feed(stage, [try messages.record(PushMessages.device(token))])
        transport.script(token, .rejected(status: 503, reason: "ServiceUnavailable", timestamp: nil, retryAfterSeconds: 1))
        try await feed(stage, [try messages.record(PushMessages.notification("n1"))], from: 3)
        #expect(stage.state(of: "_u1")?.pending.count == 1)
        let read = NotificationRead(recipient: "_u1", containerIdentifier: PushMessages.container, notificationIDs: ["n1"], readAt: 1)
        try await feed(stage, [OutgoingMessage(
            topic: catalog.names.notificationReads, partition: messages.partition(of: "_u1"), key: "_u1",
            value: try WireCodec().encode(read))], from: 4)
        #expect(stage.state(of: "_u1")?.pending.isEmpty == true)
        clock.advance(by: 5_000)
        _ = try await tick(stage)
        #expect(transport.pushes(to: token) == ["n1"])
    }
}
