import Foundation
import HeraldKafka
import HeraldStages
import HeraldTestSupport
import Synchronization
import Testing

/// Upper-cases messages whose value is a JSON string; anything else is rejected.
private struct ShoutProcessor: StageProcessor {
    let output: String
    let failures: FailureBudget

    func process(_ batch: [ConsumedMessage]) async throws -> StageResult {
        if failures.spend() { throw CancellationError() }
        return StageResult.each(batch) { message throws(Rejection.Reason) in
            guard let value = message.value,
                  let text = try? JSONDecoder().decode(String.self, from: value) else {
                throw .undecodable("value is not a JSON string")
            }
            return [OutgoingMessage(topic: output, key: message.key, value: Data(text.uppercased().utf8))]
        }
    }
}

@Suite("Stage runner", .timeLimit(.minutes(5)))
struct StageRunnerTests {
    private func runStage(
        _ fixture: PipelineFixture, failures: Int = 0, until done: @escaping @Sendable () async throws -> Void
    ) async throws {
        let input = fixture.catalog.name(TopicCatalog.recordChanges)
        let output = fixture.catalog.name(TopicCatalog.matches)
        let processorFailures = FailureBudget(failures)
        var configuration = StageConfiguration(
            name: "shout", inputTopics: [input], deadLetterTopic: fixture.catalog.name(TopicCatalog.deadLetters))
        configuration.retry = RetryPolicy(initial: .milliseconds(10))
        let producer = try fixture.producer()
        let runner = StageRunner(
            configuration: configuration, processor: ShoutProcessor(output: output, failures: processorFailures),
            consumer: try fixture.consumer(group: "shout"), context: fixture.context(producer: producer))
        try await fixture.run([runner], until: done)
        await producer.close()
    }

    @Test("garbage goes to dead letters with its source and reason while good input still flows")
    func garbageToDeadLettersGoodInputFlows() async throws {
        let fixture = try await PipelineFixture()
        let input = fixture.catalog.name(TopicCatalog.recordChanges)
        let producer = try fixture.producer()
        var messages: [OutgoingMessage] = (0..<20).map {
            OutgoingMessage(topic: input, key: "k\($0)", value: Data("\"hello \($0)\"".utf8))
        }
        messages.insert(OutgoingMessage(topic: input, key: "bad-1", value: Data("{not json".utf8)), at: 5)
        messages.insert(OutgoingMessage(topic: input, key: "bad-2", value: nil), at: 12)
        messages.insert(OutgoingMessage(topic: input, key: "bad-3", value: Data([0xff, 0xfe, 0x00])), at: 17)
        let reports = try await producer.send(messages)
        await producer.close()

        try await runStage(fixture) {
            let outputs = try await fixture.read(fixture.catalog.name(TopicCatalog.matches), count: 20)
            #expect(Set(outputs.map(\.text)) == Set((0..<20).map { "HELLO \($0)" }))
        }
        let deadLetters = try await fixture.read(fixture.catalog.name(TopicCatalog.deadLetters), count: 3)
        let records = deadLetters.compactMap(DeadLetter.Record.init)
        #expect(records.count == 3)
        let bad = records.first { $0.key == Data("bad-1".utf8) }
        let source = reports[5]
        #expect(bad?.value == Data("{not json".utf8), "raw bytes kept")
        #expect(bad?.sourceTopic == input)
        #expect(bad?.sourcePartition == source.topicPartition.partition)
        #expect(bad?.sourceOffset == source.offset)
        #expect(bad?.code == "UNDECODABLE")
        #expect(bad?.stage == "shout")
        #expect(records.contains { $0.key == Data("bad-2".utf8) && $0.value == nil })
        #expect(records.contains { $0.value == Data([0xff, 0xfe, 0x00]) })

        // Everything was committed: a restarted stage finds nothing left to do.
        let committed = try await fixture.committedOffsets(group: "shout", topics: [input])
        #expect(committed.values.reduce(0, +) == Int64(messages.count))
    }

    @Test("a failing batch is retried and delivered once it succeeds, with nothing skipped")
    func failedBatchIsRetried() async throws {
        let fixture = try await PipelineFixture(partitions: 1)
        let input = fixture.catalog.name(TopicCatalog.recordChanges)
        let producer = try fixture.producer()
        _ = try await producer.send((0..<10).map { OutgoingMessage(topic: input, key: "k", value: Data("\"m\($0)\"".utf8)) })
        await producer.close()
        try await runStage(fixture, failures: 3) {
            let outputs = try await fixture.read(fixture.catalog.name(TopicCatalog.matches), count: 10)
            #expect(outputs.map(\.text) == (0..<10).map { "M\($0)" })
        }
    }
}

/// Emits one numbered message per tick on an idle topic, and records what was delivered.
private final class TickingProcessor: StageProcessor {
    let output: String
    let ticks = Mutex(0)
    let deliveredTicks = Mutex(0)

    init(output: String) { self.output = output }

    var tickInterval: Duration? { .milliseconds(50) }

    func process(_ batch: [ConsumedMessage]) async throws -> StageResult { StageResult() }

    /// A tick's number counts the ticks delivered before it (its state commits only on
    /// `delivered`, as a real processor's does), so a tick retried after a failed delivery
    /// writes the same message again instead of the next one.
    func tick() async throws -> StageResult {
        ticks.withLock { $0 += 1 }
        let number = deliveredTicks.withLock { $0 } + 1
        guard number <= 3 else { return StageResult() }
        return StageResult(outputs: [OutgoingMessage(topic: output, key: "tick", value: Data("tick \(number)".utf8))])
    }

    func delivered(_ batch: [ConsumedMessage]) async {
        if batch.isEmpty { deliveredTicks.withLock { $0 += 1 } }
    }
}

@Suite("Stage runner timers", .timeLimit(.minutes(5)))
struct StageRunnerTickTests {
    @Test("ticks run on an idle input and their outputs are delivered before delivered([]) is called")
    func ticksRunWhileIdle() async throws {
        let fixture = try await PipelineFixture()
        let output = fixture.catalog.name(TopicCatalog.matches)
        let processor = TickingProcessor(output: output)
        let producer = try fixture.producer()
        let runner = StageRunner(
            configuration: StageConfiguration(
                name: "ticking", inputTopics: [fixture.catalog.name(TopicCatalog.recordChanges)],
                deadLetterTopic: fixture.catalog.name(TopicCatalog.deadLetters)),
            processor: processor, consumer: try fixture.consumer(group: "ticking"),
            context: fixture.context(producer: producer))
        try await fixture.run([runner]) {
            // 60 s, as the other pipeline tests: CI's whole-suite run on two cores once read
            // only two ticks within 20 s.
            let outputs = try await fixture.read(output, count: 3, timeout: .seconds(60))
            #expect(outputs.map(\.text) == ["tick 1", "tick 2", "tick 3"])
        }
        // Every tick that returned was followed by delivered([]), with or without outputs
        // (a retried one, after a failed delivery, is called again first).
        let delivered = processor.deliveredTicks.withLock { $0 }
        #expect(delivered >= 3)
        #expect(delivered <= processor.ticks.withLock { $0 })
        await producer.close()
    }
}
