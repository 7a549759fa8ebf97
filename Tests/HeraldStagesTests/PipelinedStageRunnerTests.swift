import Foundation
import HeraldKafka
import HeraldModel
import HeraldStages
import HeraldTestSupport
import Synchronization
import Testing

/// How many messages of one key a `TallyProcessor` applied, and the input it applied.
private struct Tally: KeyedState {
    var key: String
    var count = 0
    var applied = AppliedOffsets()
    var stateKey: String { key }
}

/// Counts messages per key in a `KeyedStateStore` (changelog: `compose-state`), emitting
/// `key:count` per message — a small stateful stage with the compose stage's exactness
/// (applied offsets in the state). Test switches: the first batch holding `once` writes an
/// oversized state for it (refused by Kafka), and the key `big` gets an oversized output.
private final class TallyProcessor: StageProcessor {
    let output: String
    let states: KeyedStateStore<Tally>
    let once: String
    let oversizeState: FailureBudget
    /// The first input offset of each batch, as processed and as delivered.
    let processed = Mutex<[Int64]>([])
    let delivered = Mutex<[Int64]>([])
    let revocations = Mutex(0)

    init(output: String, changelog: String, reader: ChangelogReader, once: String = "", oversizeState: Int = 0) {
        self.output = output
        self.states = KeyedStateStore(topic: changelog, changelog: reader)
        self.once = once
        self.oversizeState = FailureBudget(oversizeState)
    }

    func process(_ batch: [ConsumedMessage]) async throws -> StageResult {
        var staged = states.batch()
        var result = StageResult.each(batch) { message throws(Rejection.Reason) in
            guard let key = message.keyString else { throw .invalid("no key") }
            var tally = staged[key] ?? Tally(key: key)
            guard tally.applied.insert(message.position) else { return [] }
            tally.count += 1
            staged.stage(tally, on: message.partition)
            let value = key == "big" ? Data(count: 1_200_000) : Data("\(key):\(tally.count)".utf8)
            return [OutgoingMessage(topic: output, key: key, value: value)]
        }
        var changelog = try states.changelogMessages(staged)
        if let index = changelog.firstIndex(where: { $0.key == Data(once.utf8) }), oversizeState.spend() {
            changelog[index].value = Data(count: 1_200_000)
        }
        result.outputs += changelog
        states.stage(staged)
        processed.withLock { $0.append(batch.first?.offset ?? -1) }
        return result
    }

    func delivered(_ batch: [ConsumedMessage]) async {
        states.commit()
        delivered.withLock { $0.append(batch.first?.offset ?? -1) }
    }

    func partitionsAssigned(_ partitions: [TopicPartition]) async throws {
        try await states.restore(partitions)
    }

    func partitionsRevoked(_ partitions: [TopicPartition]) async {
        revocations.withLock { $0 += 1 }
        states.revoke(partitions)
    }
}

@Suite("Pipelined stage runner", .timeLimit(.minutes(5)))
struct PipelinedStageRunnerTests {
    /// Input: `perKey` messages of each of `k0`…`k4` (interleaved), then `extra` keys once each.
    private func produceInput(_ fixture: PipelineFixture, perKey: Int, extra: [String] = []) async throws -> [String: Int] {
        let input = fixture.catalog.name(TopicCatalog.recordChanges)
        var messages: [OutgoingMessage] = []
        var expected: [String: Int] = [:]
        for round in 0..<perKey {
            for key in (0..<5).map({ "k\($0)" }) {
                messages.append(OutgoingMessage(topic: input, key: key, value: Data("\(round)".utf8)))
                expected[key, default: 0] += 1
            }
            if round == perKey / 2 {
                for key in extra {
                    messages.append(OutgoingMessage(topic: input, key: key, value: Data("x".utf8)))
                    expected[key, default: 0] += 1
                }
            }
        }
        let producer = try fixture.producer()
        _ = try await producer.send(messages)
        await producer.close()
        return expected
    }

    /// Runs the tally stage, pipelined 4 deep over batches of at most 20, until everything is committed.
    private func runTally(_ fixture: PipelineFixture, _ processor: TallyProcessor) async throws {
        let input = fixture.catalog.name(TopicCatalog.recordChanges)
        var configuration = StageConfiguration(
            name: "tally", inputTopics: [input], deadLetterTopic: fixture.catalog.name(TopicCatalog.deadLetters))
        configuration.retry = RetryPolicy(initial: .milliseconds(10))
        configuration.stateTopics = [fixture.catalog.name(TopicCatalog.composeState)]
        configuration.batchesInFlight = 4
        var settings = fixture.environment.consumerConfiguration(groupID: "tally", clientID: "test")
        settings.sessionTimeout = .seconds(3)
        settings.maxBatchSize = 20
        let producer = try fixture.producer()
        let runner = StageRunner(
            configuration: configuration, processor: processor,
            consumer: try KafkaConsumer(configuration: settings, logger: fixture.logger),
            context: fixture.context(producer: producer))
        try await fixture.run([runner]) {
            let committed = try await fixture.waitUntilCommitted(group: "tally", [input])
            #expect(committed, "everything committed: \(fixture.recentLog.text)")
        }
        await producer.close()
    }

    private func tallyProcessor(_ fixture: PipelineFixture, once: String = "", oversizeState: Int = 0) throws -> TallyProcessor {
        let producer = try fixture.producer()
        let reader = fixture.context(producer: producer).changelogReader(for: "tally")
        return TallyProcessor(
            output: fixture.catalog.name(TopicCatalog.matches), changelog: fixture.catalog.name(TopicCatalog.composeState),
            reader: reader, once: once, oversizeState: oversizeState)
    }

    /// Each key's counts in the order its messages were written (one key stays on one partition).
    private func counts(_ messages: [ConsumedMessage]) -> [String: [Int]] {
        var counts: [String: [Int]] = [:]
        for message in messages {
            guard let key = message.keyString else { continue }
            guard let value = message.value else { continue }
            if let tally = try? JSONDecoder().decode(Tally.self, from: value) {
                counts[key, default: []].append(tally.count)
            } else if let text = String(data: value, encoding: .utf8), let colon = text.lastIndex(of: ":") {
                counts[key, default: []].append(Int(text[text.index(after: colon)...]) ?? -1)
            }
        }
        return counts
    }

    @Test("batches in flight complete in order: every output once, each key's writes in order, offsets all stored")
    func pipelinedInOrder() async throws {
        let fixture = try await PipelineFixture()
        let expected = try await produceInput(fixture, perKey: 60)
        let processor = try tallyProcessor(fixture)
        try await runTally(fixture, processor)

        let outputs = counts(try await fixture.readToEnd(fixture.catalog.name(TopicCatalog.matches)))
        for (key, count) in expected {
            #expect(outputs[key] == Array(1...count), "outputs of \(key)")
        }
        let changelog = counts(try await fixture.readToEnd(fixture.catalog.name(TopicCatalog.composeState)))
        for (key, count) in expected {
            let written = changelog[key] ?? []
            #expect(written == written.sorted() && Set(written).count == written.count, "changelog of \(key) in order")
            #expect(written.last == count)
        }
        // `delivered` ran once per batch, in the order the batches were processed.
        #expect(processor.delivered.withLock { $0 } == processor.processed.withLock { $0 })
        #expect(processor.revocations.withLock { $0 } == 0)
    }

    @Test("a state write refused mid-pipeline: the batches are undone and redone — nothing lost, no state doubled or reordered")
    func refusedStateWriteIsRedone() async throws {
        let fixture = try await PipelineFixture()
        let expected = try await produceInput(fixture, perKey: 60, extra: ["once", "big"])
        let processor = try tallyProcessor(fixture, once: "once", oversizeState: 1)
        try await runTally(fixture, processor)

        // The refusal was recovered by undoing the state (revoke + restore), not by skipping.
        #expect(processor.revocations.withLock { $0 } >= 1)
        let outputs = counts(try await fixture.readToEnd(fixture.catalog.name(TopicCatalog.matches)))
        for (key, count) in expected where key != "big" {
            // Redone batches may write an output again (at-least-once), never skip or double-count one.
            #expect(Set(outputs[key] ?? []) == Set(1...count), "outputs of \(key)")
        }
        let changelog = counts(try await fixture.readToEnd(fixture.catalog.name(TopicCatalog.composeState)))
        for (key, count) in expected {
            let written = changelog[key] ?? []
            #expect(written == written.sorted(), "changelog of \(key) never goes back: \(written)")
            #expect(written.last == count, "final state of \(key)")
        }
        // The oversized output became a dead letter; the stage went on.
        let raw = try await fixture.readToEnd(fixture.catalog.name(TopicCatalog.deadLetters))
        let deadLetters = raw.compactMap(DeadLetter.Record.init)
        #expect(deadLetters.count == 1, "\(raw.count) dead letters; \(outputs["big"] ?? []) \(fixture.recentLog.text)")
        #expect(deadLetters.first?.code == DeadLetter.outputRejectedCode)
        #expect(deadLetters.first?.key == Data("big".utf8))
    }
}
