import Foundation
import HeraldKafka
import Logging

/// Produce and consume throughput of `HeraldKafka` against `RawClientBaseline` on one
/// embedded broker, interleaved round by round so both see the same machine state.
public struct KafkaBenchmark {
    /// One path's best rate, raw and through HeraldKafka.
    public struct Result: Sendable {
        public var path: String
        public var raw: Double
        public var herald: Double
    }

    let messages: Int
    let size: Int
    let partitions: Int32
    let batchSize: Int
    let inFlight: Int
    let cluster: EmbeddedKafkaCluster
    let logger: Logger

    /// Starts the embedded broker the runs share.
    /// - Parameters:
    ///   - messages: messages per run; `size`: value size in bytes; `batchSize` and `inFlight`:
    ///     HeraldKafka's messages per `enqueue` call, and batches queued behind the oldest one still awaited.
    public init(messages: Int, size: Int, partitions: Int32, batchSize: Int, inFlight: Int, logger: Logger) throws {
        self.batchSize = batchSize
        self.inFlight = inFlight
        self.messages = messages
        self.size = size
        self.partitions = partitions
        self.logger = logger
        cluster = try EmbeddedKafkaCluster(brokers: 1, logger: logger)
    }

    /// The producer settings both paths share.
    private var producerSettings: ProducerConfiguration {
        ProducerConfiguration(bootstrapServers: cluster.bootstrapServers)
    }

    /// Runs each path `rounds` times, interleaved, and keeps the best rate of each.
    public func run(rounds: Int) async throws -> [Result] {
        var produce = Result(path: "produce", raw: 0, herald: 0)
        var consume = Result(path: "consume", raw: 0, herald: 0)
        let value = [UInt8](repeating: UInt8(ascii: "x"), count: size)
        var consumeTopic = ""
        for round in 0..<rounds {
            let rawTopic = try topic("raw-\(round)")
            produce.raw = max(produce.raw, try measure {
                let delivered = try RawClientBaseline.produce(
                    bootstrapServers: cluster.bootstrapServers, topic: rawTopic, partitions: partitions,
                    count: messages, value: value, properties: producerSettings.properties)
                guard delivered == messages else { throw BenchmarkError("raw produce delivered \(delivered) of \(messages)") }
            })
            let heraldTopic = try topic("herald-\(round)")
            produce.herald = max(produce.herald, try await measureAsync { try await produceWithHerald(topic: heraldTopic, value: Data(value)) })
            consumeTopic = rawTopic
            consume.raw = max(consume.raw, try measure {
                var settings = ConsumerConfiguration(bootstrapServers: cluster.bootstrapServers, groupID: "bench-raw-\(round)")
                settings.readCommitted = true
                let bytes = try RawClientBaseline.consume(
                    bootstrapServers: cluster.bootstrapServers, topic: consumeTopic, partitions: partitions,
                    count: messages, properties: settings.properties)
                guard bytes == messages * size else { throw BenchmarkError("raw consume read \(bytes / size) of \(messages)") }
            })
            consume.herald = max(consume.herald, try await measureAsync { try await consumeWithHerald(topic: consumeTopic, round: round) })
            logger.info("round \(round + 1) of \(rounds) done")
        }
        return [produce, consume]
    }

    private func topic(_ name: String) throws -> String {
        let topic = "bench-\(name)-\(UUID().uuidString.prefix(6))"
        try cluster.createTopic(topic, partitions: partitions)
        return topic
    }

    /// Produces like a pipelined stage: one task enqueues `batchSize` messages at a time and
    /// awaits a batch's delivery only once `inFlight` batches are queued after it, so
    /// librdkafka's queue stays full while earlier deliveries complete.
    private func produceWithHerald(topic: String, value: Data) async throws {
        let producer = try KafkaProducer(configuration: producerSettings, logger: logger)
        let key = Data("k".utf8)
        let partitions = Int(self.partitions)
        var pending: [PendingDelivery] = []
        var oldest = 0
        var next = 0
        while next < messages {
            let range = next..<min(messages, next + batchSize)
            next = range.upperBound
            let outgoing = range.map { OutgoingMessage(topic: topic, partition: Int32($0 % partitions), key: key, value: value) }
            pending.append(try await producer.enqueue(outgoing))
            if pending.count - oldest > inFlight {
                _ = try await pending[oldest].reports()
                oldest += 1
            }
        }
        for delivery in pending[oldest...] { _ = try await delivery.reports() }
        await producer.close()
    }

    private func consumeWithHerald(topic: String, round: Int) async throws {
        let consumer = try KafkaConsumer(
            configuration: ConsumerConfiguration(bootstrapServers: cluster.bootstrapServers, groupID: "bench-herald-\(round)"),
            logger: logger)
        try consumer.assign((0..<partitions).map { TopicPartitionOffset(topic, $0, .beginning) })
        var received = 0
        var bytes = 0
        let deadline = ContinuousClock.now + .seconds(60)
        while received < messages, ContinuousClock.now < deadline {
            for case .messages(let batch) in await consumer.poll() {
                received += batch.count
                for message in batch { bytes += message.value?.count ?? 0 }
            }
        }
        await consumer.close()
        guard bytes == messages * size else { throw BenchmarkError("HeraldKafka consume read \(bytes / size) of \(messages)") }
    }

    private func measure(_ body: () throws -> Void) throws -> Double {
        let start = ContinuousClock.now
        try body()
        return rate(since: start)
    }

    private func measureAsync(_ body: () async throws -> Void) async throws -> Double {
        let start = ContinuousClock.now
        try await body()
        return rate(since: start)
    }

    private func rate(since start: ContinuousClock.Instant) -> Double {
        Double(messages) / (ContinuousClock.now - start).seconds
    }
}
