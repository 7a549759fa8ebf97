import Foundation
import HeraldDelivery
import HeraldKafka
import HeraldStages
import HeraldTestSupport
import Synchronization
import Testing

@Suite("Corrupt changelog entries stop a restore", .timeLimit(.minutes(5)))
struct CorruptChangelogTests {
    @Test("a compose-state entry that does not decode refuses the partition's restore instead of restarting the user at 1")
    func composeRefusesCorruptState() async throws {
        let fixture = try await PipelineFixture(partitions: 1)
        let catalog = fixture.catalog
        let producer = try fixture.producer()
        _ = try await producer.send(OutgoingMessage(
            topic: catalog.name(TopicCatalog.composeState), partition: 0, key: "_alice", value: Data("{\"recipient\": 7".utf8)))
        let processor = ComposeProcessor(context: fixture.context(producer: producer), delivery: Delivery(), users: UserDirectory())
        await #expect {
            try await processor.partitionsAssigned([TopicPartition(catalog.name(TopicCatalog.matches), 0)])
        } throws: { error in
            guard let error = error as? PipelineError else { return false }
            return error.code == .restore && error.reason.contains("_alice")
                && error.location == "\(catalog.name(TopicCatalog.composeState))[0]"
        }
        #expect(processor.userCount == 0)
        await producer.close()
    }
}

/// Fails its first `failures` restores, then passes every message through.
private final class FlakyRestoreProcessor: StageProcessor {
    let output: String
    let failures: FailureBudget
    let restores = Mutex(0)

    init(output: String, failures: Int) {
        self.output = output
        self.failures = FailureBudget(failures)
    }

    func partitionsAssigned(_ partitions: [TopicPartition]) async throws {
        restores.withLock { $0 += 1 }
        if failures.spend() { throw PipelineError(code: .restore, reason: "changelog entry does not restore") }
    }

    func process(_ batch: [ConsumedMessage]) async throws -> StageResult {
        StageResult(outputs: batch.map { OutgoingMessage(topic: output, key: $0.key, value: $0.value) })
    }
}

@Suite("A failed restore is retried", .timeLimit(.minutes(5)))
struct RestoreRetryTests {
    @Test("the runner retries a failed restore with back-off, then processes the partitions")
    func restoreIsRetried() async throws {
        let fixture = try await PipelineFixture(partitions: 1)
        let input = fixture.catalog.name(TopicCatalog.recordChanges)
        let output = fixture.catalog.name(TopicCatalog.matches)
        let producer = try fixture.producer()
        _ = try await producer.send((0..<5).map { OutgoingMessage(topic: input, key: "k", value: Data("m\($0)".utf8)) })
        let processor = FlakyRestoreProcessor(output: output, failures: 2)
        var configuration = StageConfiguration(
            name: "flaky", inputTopics: [input], deadLetterTopic: fixture.catalog.name(TopicCatalog.deadLetters))
        configuration.retry = RetryPolicy(initial: .milliseconds(20))
        let runner = StageRunner(
            configuration: configuration, processor: processor, consumer: try fixture.consumer(group: "flaky"),
            context: fixture.context(producer: producer))
        try await fixture.run([runner]) {
            let outputs = try await fixture.read(output, count: 5)
            #expect(outputs.map(\.text) == (0..<5).map { "m\($0)" })
        }
        await producer.close()
        #expect(processor.restores.withLock { $0 } == 3, "two failed attempts, then one that succeeded")
    }
}
