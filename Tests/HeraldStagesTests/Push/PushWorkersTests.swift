import Foundation
import HeraldApp
import HeraldKafka
import HeraldModel
import HeraldPush
import HeraldStages
import HeraldTestSupport
import Testing

/// `--push-workers 2`: two members of the push stage's group in one process, each with its
/// own partitions and batches, over one set of transports.
@Suite("Push stage workers", .timeLimit(.minutes(5)))
struct PushWorkersTests {
    @Test("two workers push every notification once per device, in order, and each is a readiness condition")
    func twoWorkers() async throws {
        let fixture = try await PipelineFixture(partitions: 4)
        let catalog = fixture.catalog
        let messages = PushMessages(catalog: catalog)
        let producer = try fixture.producer()
        let transport = PushTransportDouble()
        var configuration = fixture.runtimeConfiguration([.push])
        configuration.push.transports = PushTransports(transport)
        configuration.push.settings.workers = 2
        configuration.push.settings.maxBatchSize = 4
        let group = HeraldStage.push.groupID(prefix: catalog.prefix)
        let inputs = HeraldStage.push.inputTopics.map(catalog.name)
        let users = (1...8).map { "_u\($0)" }
        _ = try await producer.send(try users.enumerated().map { index, user in
            try messages.record(PushMessages.device(PushMessages.apnsToken(index + 1), user: user))
        })
        let ids = (0..<5).map { round in users.map { "n\(round)-\($0)" } }
        try await fixture.withRuntime(configuration) { runtime in
            #expect(try await fixture.waitUntilCommitted(group: group, inputs, timeout: .seconds(60)), "\(fixture.recentLog.text)")
            #expect(runtime.readiness.conditions.keys.contains("stage.push"))
            #expect(runtime.readiness.conditions.keys.contains("stage.push.2"))
            for (round, roundIDs) in ids.enumerated() {
                _ = try await producer.send(try zip(roundIDs, users).map { id, user in
                    try messages.record(PushMessages.notification(id, user: user, sequence: Int64(round + 1)))
                })
            }
            let all = try await Wait.until(timeout: .seconds(60)) { transport.sent.count >= 40 }
            #expect(all, "pushes: \(transport.sent.count); log:\n\(fixture.recentLog.text)")
            #expect(try await fixture.waitUntilCommitted(group: group, inputs, timeout: .seconds(60)))
        }
        #expect(transport.sent.count == 40)
        for (index, user) in users.enumerated() {
            #expect(transport.pushes(to: PushMessages.apnsToken(index + 1)) == ids.map { $0[index] }, "\(user)")
        }
        await producer.close()
    }
}
