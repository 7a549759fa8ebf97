import Foundation
import HeraldDelivery
import HeraldKafka
import HeraldStages
import HeraldTestSupport
import ServiceLifecycle
import Testing

/// Upper-cases JSON strings; rejects values over `maxInput` (as the match stage rejects a
/// change over its limit) and anything not a JSON string; `"grow:N"` outputs N bytes.
private struct PoisonProcessor: StageProcessor {
    let output: String
    let maxInput: Int

    func process(_ batch: [ConsumedMessage]) async throws -> StageResult {
        StageResult.each(batch) { message throws(Rejection.Reason) in
            guard let value = message.value else { throw .invalid("null") }
            guard value.count <= maxInput else { throw .tooLarge("\(value.count) bytes exceeds \(maxInput)") }
            guard let text = try? JSONDecoder().decode(String.self, from: value) else { throw .undecodable("not a JSON string") }
            if text.hasPrefix("grow:"), let size = Int(text.dropFirst(5)) {
                return [OutgoingMessage(topic: output, key: message.key, value: Data(repeating: 0x41, count: size))]
            }
            return [OutgoingMessage(topic: output, key: message.key, value: Data(text.uppercased().utf8))]
        }
    }
}

@Suite("Poison input never stops a partition", .timeLimit(.minutes(5)))
struct PoisonInputTests {
    /// The stage's producer accepts at most this many bytes per message.
    static let stageLimit = 4_096

    /// Runs a `PoisonProcessor` stage whose producer has `message.max.bytes` = `stageLimit`
    /// until `done` returns, then shuts it down.
    private func runStage(
        _ fixture: PipelineFixture, exactlyOnce: Bool = false, configure: (inout ProducerConfiguration) -> Void = { _ in },
        until done: @escaping @Sendable () async throws -> Void
    ) async throws {
        var settings = fixture.environment.producerConfiguration(clientID: "poison-stage")
        settings.linger = .milliseconds(1)
        settings.maxMessageBytes = Self.stageLimit
        if exactlyOnce { settings.transactionalID = "poison-\(UUID().uuidString)" }
        configure(&settings)
        let producer = try KafkaProducer(configuration: settings, logger: fixture.logger)
        var configuration = StageConfiguration(
            name: "poison", inputTopics: [fixture.catalog.name(TopicCatalog.recordChanges)],
            deadLetterTopic: fixture.catalog.name(TopicCatalog.deadLetters))
        configuration.retry = RetryPolicy(initial: .milliseconds(50), maximum: .milliseconds(200))
        configuration.exactlyOnce = exactlyOnce
        let runner = StageRunner(
            configuration: configuration,
            processor: PoisonProcessor(output: fixture.catalog.name(TopicCatalog.matches), maxInput: 2_048),
            consumer: try fixture.consumer(group: "poison"), context: fixture.context(producer: producer))
        try await fixture.run([runner], until: done)
        await producer.close()
    }

    private func committedCount(_ fixture: PipelineFixture) async throws -> Int64 {
        try await fixture.committedOffsets(group: "poison", topics: [fixture.catalog.name(TopicCatalog.recordChanges)]).values.reduce(0, +)
    }

    @Test("one change over the producer's limit among many: all valid ones processed, one reduced dead letter")
    func oversizeInputAmongMany() async throws {
        let fixture = try await PipelineFixture()
        let input = fixture.catalog.name(TopicCatalog.recordChanges)
        let big = Data(repeating: 0x7A, count: 20_000)
        var messages = (0..<300).map { OutgoingMessage(topic: input, key: "k\($0 % 7)", value: Data("\"v\($0)\"".utf8)) }
        messages.insert(OutgoingMessage(topic: input, key: "big", value: big, headers: [MessageHeader("trace", "t-1")]), at: 150)
        let producer = try fixture.producer()
        let reports = try await producer.send(messages)
        await producer.close()

        try await runStage(fixture) {
            let outputs = try await fixture.read(fixture.catalog.name(TopicCatalog.matches), count: 300)
            #expect(Set(outputs.map(\.text)) == Set((0..<300).map { "V\($0)" }))
            #expect(outputs.count == 300)
        }
        #expect(try await committedCount(fixture) == 301, "every input committed, the big one included")
        let letters = try await fixture.readToEnd(fixture.catalog.name(TopicCatalog.deadLetters))
        #expect(letters.count == 1, "exactly one dead letter")
        let record = try #require(letters.first.flatMap(DeadLetter.Record.init))
        #expect(record.code == "TOO_LARGE")
        #expect(record.sourceOffset == reports[150].offset)
        #expect(record.sourcePartition == reports[150].topicPartition.partition)
        #expect(record.valueForm == .truncated)
        #expect(record.originalSize == 20_000)
        #expect(record.sha256 == "09ef7eb5c2cd6571647475fd220c7b88426cf645dd18a063ad27b4c8f1f180a6", "sha256 of 20 000 × z")
        #expect(record.originalHeaders == [MessageHeader("trace", "t-1")])
        #expect(record.key == Data("big".utf8))
        let value = try #require(record.value)
        #expect(value.count > 1_000 && big.starts(with: value), "a prefix of the original, as much as fits")
        #expect(!record.isReplayable)
    }

    @Test("an output Kafka refuses as too large goes to dead letters as OUTPUT_REJECTED; the rest flows")
    func oversizeOutputToDeadLetters() async throws {
        let fixture = try await PipelineFixture()
        let input = fixture.catalog.name(TopicCatalog.recordChanges)
        let producer = try fixture.producer()
        var messages = (0..<50).map { OutgoingMessage(topic: input, key: "k\($0)", value: Data("\"v\($0)\"".utf8)) }
        messages.insert(OutgoingMessage(topic: input, key: "grow", value: Data("\"grow:9000\"".utf8)), at: 20)
        _ = try await producer.send(messages)
        await producer.close()
        try await runStage(fixture) {
            let outputs = try await fixture.read(fixture.catalog.name(TopicCatalog.matches), count: 50)
            #expect(Set(outputs.map(\.text)) == Set((0..<50).map { "V\($0)" }))
        }
        #expect(try await committedCount(fixture) == 51)
        let letters = try await fixture.readToEnd(fixture.catalog.name(TopicCatalog.deadLetters))
        let records = letters.compactMap(DeadLetter.Record.init)
        #expect(records.count == 1)
        let record = try #require(records.first)
        #expect(record.code == DeadLetter.outputRejectedCode)
        #expect(record.sourceTopic == fixture.catalog.name(TopicCatalog.matches))
        #expect(record.sourceOffset == -1)
        #expect(record.reason.contains("MSG_SIZE_TOO_LARGE"))
        #expect(record.originalSize == 9_000)
        #expect(record.valueForm == .truncated)
    }

    @Test("exactly-once: an output over message.max.bytes is replaced by its dead letter before the transaction")
    func oversizeOutputInTransaction() async throws {
        let fixture = try await PipelineFixture(partitions: 1)
        let input = fixture.catalog.name(TopicCatalog.recordChanges)
        let producer = try fixture.producer()
        var messages = (0..<10).map { OutgoingMessage(topic: input, key: "k\($0)", value: Data("\"v\($0)\"".utf8)) }
        messages.insert(OutgoingMessage(topic: input, key: "grow", value: Data("\"grow:9000\"".utf8)), at: 4)
        _ = try await producer.send(messages)
        await producer.close()
        try await runStage(fixture, exactlyOnce: true) {
            let outputs = try await fixture.read(fixture.catalog.name(TopicCatalog.matches), count: 10)
            #expect(outputs.map(\.text) == (0..<10).map { "V\($0)" })
        }
        let letters = try await fixture.readToEnd(fixture.catalog.name(TopicCatalog.deadLetters))
        #expect(letters.compactMap(DeadLetter.Record.init).map(\.code) == [DeadLetter.outputRejectedCode])
        // (Offsets sent to a transaction are not checked: the embedded broker accepts
        // TxnOffsetCommit without storing it.)
    }

    @Test("outputs that failed transiently are re-sent alone: dead letters already written are not repeated")
    func transientOutputFailureRetriesOnlyTheFailed() async throws {
        let fixture = try await PipelineFixture(partitions: 1)
        let input = fixture.catalog.name(TopicCatalog.recordChanges)
        let output = fixture.catalog.name(TopicCatalog.matches)
        let producer = try fixture.producer()
        var messages = (0..<20).map { OutgoingMessage(topic: input, key: "k\($0)", value: Data("\"v\($0)\"".utf8)) }
        messages.insert(OutgoingMessage(topic: input, key: "bad", value: Data("{not json".utf8)), at: 3)
        messages.insert(OutgoingMessage(topic: input, key: "huge", value: Data(repeating: 0x22, count: 10_000)), at: 9)
        _ = try await producer.send(messages)
        await producer.close()
        let cluster = try #require(fixture.environment.embedded)
        // The output topic's leader is unknown: its messages time out, the dead letters do not.
        cluster.setTopicError(output, .leaderNotAvailable)
        let deadLetterTopic = fixture.catalog.name(TopicCatalog.deadLetters)
        try await runStage(fixture, configure: { $0.deliveryTimeout = .seconds(1) }) {
            // The dead letters are written while the outputs cannot be: that batch fails in part.
            let written = try await fixture.read(deadLetterTopic, count: 2, timeout: .seconds(20))
            #expect(written.count == 2)
            // The outputs time out (after the delivery timeout) and are re-sent.
            let failed = try await Wait.until { fixture.recentLog.contains("not delivered") }
            #expect(failed, "the outputs failed at least once; recent log:\n\(fixture.recentLog.text)")
            cluster.setTopicError(output, .noError)
            let outputs = try await fixture.read(output, count: 20, timeout: .seconds(30))
            #expect(outputs.map(\.text) == (0..<20).map { "V\($0)" }, "in order, once each")
        }
        let letters = try await fixture.readToEnd(fixture.catalog.name(TopicCatalog.deadLetters))
        #expect(letters.compactMap(DeadLetter.Record.init).map(\.code).sorted() == ["TOO_LARGE", "UNDECODABLE"])
        #expect(try await committedCount(fixture) == 22)
    }
}
