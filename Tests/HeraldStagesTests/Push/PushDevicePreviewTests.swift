import Foundation
import HeraldKafka
import HeraldModel
import HeraldPush
@testable import HeraldStages
import HeraldTestSupport
import Testing

/// After a restart the push stage replays `devices` and `notifications` from its committed
/// offsets, and a poll may hand over a user's notification before the registration that came
/// before it. The registrations on `devices` are taken in on assignment, so the notification
/// still finds its device (the chaos suite's push scenario lost such pushes before).
@Suite("Push stage: registrations taken in on assignment", .timeLimit(.minutes(5)))
struct PushDevicePreviewTests {
    @Test("a notification processed before its device's record (a replay) is still pushed; a removed device is not added")
    func notificationBeforeRegistration() async throws {
        let fixture = try await PipelineFixture(partitions: 2)
        let catalog = fixture.catalog
        let messages = PushMessages(catalog: catalog)
        let producer = try fixture.producer()
        let registered = PushMessages.apnsToken(1), removed = PushMessages.apnsToken(2)
        _ = try await producer.send([
            try messages.record(PushMessages.device(registered)), try messages.record(PushMessages.device(removed)),
            try messages.record(PushMessages.device(removed), removing: true),
        ])
        let transport = PushTransportDouble()
        let processor = PushProcessor(
            topics: catalog.names, partitions: catalog.partitions, transports: PushTransports(transport),
            changelog: fixture.context(producer: producer).changelogReader(for: "push"))
        let partition = messages.partition(of: "_u1")
        try await processor.partitionsAssigned([
            TopicPartition(catalog.names.notifications, partition), TopicPartition(catalog.names.devices, partition),
        ])
        #expect(processor.state(of: "_u1")?.devices.keys.sorted() == [PushMessages.device(registered).userKey])
        // The notification alone, as a poll that put it before the devices records would.
        let notification = messages.consumed(try messages.record(PushMessages.notification("n1")), offset: 0)
        _ = try await processor.process([notification])
        await processor.delivered([notification])
        #expect(transport.pushes(to: registered) == ["n1"])
        #expect(transport.pushes(to: removed).isEmpty)
        await producer.close()
    }
}
