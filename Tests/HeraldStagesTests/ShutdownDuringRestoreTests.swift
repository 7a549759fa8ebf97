import Foundation
import HeraldKafka
import HeraldStages
import HeraldTestSupport
import ServiceLifecycle
import Synchronization
import Testing

/// Waits in `partitionsAssigned` as the match stage waits for its subscription table, and
/// gives up with `CancellationError` once the service shuts down.
private final class SlowRestoreProcessor: StageProcessor {
    private let entered = Mutex(false)
    var restoreStarted: Bool { entered.withLock { $0 } }

    func process(_ batch: [ConsumedMessage]) async throws -> StageResult { StageResult() }

    func partitionsAssigned(_ partitions: [TopicPartition]) async throws {
        entered.withLock { $0 = true }
        while !(Task.isShuttingDownGracefully || Task.isCancelled) { try await Task.sleep(for: .milliseconds(10)) }
        throw CancellationError()
    }
}

@Suite("Stage runner: shutdown while restoring", .timeLimit(.minutes(5)))
struct ShutdownDuringRestoreTests {
    @Test("a graceful shutdown while assigned partitions are restored stops the stage cleanly, not with an error")
    func cleanStop() async throws {
        let fixture = try await PipelineFixture()
        let input = fixture.catalog.name(TopicCatalog.recordChanges)
        let producer = try fixture.producer()
        _ = try await producer.send([OutgoingMessage(topic: input, key: "k", value: Data("1".utf8))])
        let processor = SlowRestoreProcessor()
        let runner = StageRunner(
            configuration: StageConfiguration(
                name: "slow-restore", inputTopics: [input], deadLetterTopic: fixture.catalog.name(TopicCatalog.deadLetters)),
            processor: processor, consumer: try fixture.consumer(group: "slow-restore"),
            context: fixture.context(producer: producer))
        // `run` rethrows what the service group's run throws: before the fix, the
        // CancellationError of the restore cut short by the shutdown.
        let started = try await fixture.run([runner]) {
            try await Wait.until(timeout: .seconds(120)) { processor.restoreStarted }
        }
        #expect(started)
        await producer.close()
    }
}
