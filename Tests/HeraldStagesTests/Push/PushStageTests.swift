import Foundation
import HeraldApp
import HeraldKafka
import HeraldModel
import HeraldPush
import HeraldStages
import HeraldTestSupport
import Testing

/// `--stages push` as `herald run` builds it (`HeraldApp.buildRuntime`, transports injected),
/// on the embedded broker: devices and notifications in, pushes to the double out, and
/// nothing pushed twice when the stage starts over from the beginning of its inputs.
@Suite("Push stage on the broker", .timeLimit(.minutes(5)))
struct PushStageTests {
    @Test("pushes each notification once per device through a restart and a full replay; pruned devices get tombstones")
    func pushesOnceThroughRestart() async throws {
        let fixture = try await PipelineFixture(partitions: 2)
        let catalog = fixture.catalog
        let messages = PushMessages(catalog: catalog)
        let producer = try fixture.producer()
        let transport = PushTransportDouble()
        var configuration = fixture.runtimeConfiguration([.push])
        configuration.push.transports = PushTransports(transport)
        configuration.push.settings.retryTick = .milliseconds(50)
        let group = HeraldStage.push.groupID(prefix: catalog.prefix)
        let inputs = HeraldStage.push.inputTopics.map(catalog.name)

        let good = PushMessages.apnsToken(1), excluded = PushMessages.apnsToken(2), gone = PushMessages.apnsToken(3)
        let android = PushMessages.fcmToken(4)
        transport.script(gone, .rejected(status: 410, reason: "Unregistered", timestamp: 5_000, retryAfterSeconds: nil))
        _ = try await producer.send([
            try messages.record(PushMessages.device(good)), try messages.record(PushMessages.device(excluded)),
            try messages.record(PushMessages.device(gone)), try messages.record(PushMessages.device(android, platform: .fcm)),
            try messages.record(PushMessages.device(PushMessages.apnsToken(5), user: "_u2")),
        ])
        try await fixture.withRuntime(configuration) { _ in
            #expect(try await fixture.waitUntilCommitted(group: group, inputs, timeout: .seconds(60)), "\(fixture.recentLog.text)")
            _ = try await producer.send([
                try messages.record(PushMessages.notification("n1", excluding: excluded)),
                try messages.record(PushMessages.notification("n2", type: .readNotification)),
                try messages.record(PushMessages.notification("n3", user: "_u2")),
            ])
            let all = try await Wait.until(timeout: .seconds(60)) { transport.sent.count >= 4 }
            #expect(all, "pushes: \(transport.sent.map(\.notificationID)); log:\n\(fixture.recentLog.text)")
            #expect(try await fixture.waitUntilCommitted(group: group, inputs, timeout: .seconds(60)))
        }
        #expect(transport.pushes(to: good) == ["n1"])
        #expect(transport.pushes(to: excluded).isEmpty)
        #expect(transport.pushes(to: gone) == ["n1"])
        #expect(transport.pushes(to: android) == ["n1"])
        #expect(transport.pushes(to: PushMessages.apnsToken(5)) == ["n3"])
        let devices = try await fixture.readToEnd(catalog.name(TopicCatalog.devices))
        #expect(devices.filter { $0.value == nil }.compactMap(\.keyString) == [PushMessages.device(gone).registryKey])

        // Restart with the group's offsets gone (as after a crash before any commit): every
        // input is read again from the beginning; the state restored from push-state
        // recognizes every push already made. Only the new notification goes out.
        let replay = fixture.context(producer: producer, readiness: Readiness())
        let processor = PushProcessor(context: replay, transports: PushTransports(transport))
        let replayGroup = "push-replay-\(UUID().uuidString)"
        let runner = StageRunner(
            configuration: StageConfiguration(
                name: "push-replay", inputTopics: inputs, deadLetterTopic: catalog.name(TopicCatalog.deadLetters)),
            processor: processor, consumer: try fixture.consumer(group: replayGroup), context: replay)
        let before = transport.sent.count
        try await fixture.run([runner]) {
            _ = try await producer.send([try messages.record(PushMessages.notification("n4"))])
            let done = try await Wait.until(timeout: .seconds(60)) { transport.sent.count >= before + 3 }
            #expect(done, "log:\n\(fixture.recentLog.text)")
            #expect(try await fixture.waitUntilCommitted(group: replayGroup, inputs, timeout: .seconds(60)))
        }
        let again = transport.sent.dropFirst(before).map { "\($0.notificationID) \($0.device.token)" }
        #expect(again.sorted() == ["n4 \(good)", "n4 \(excluded)", "n4 \(android)"].sorted())
        await producer.close()
    }
}
