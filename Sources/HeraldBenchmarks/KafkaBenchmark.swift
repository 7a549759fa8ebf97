import Foundation
import HeraldKafka
import Logging

/// Produce and consume throughput of `HeraldKafka` against `RawClientBaseline` on one
/// embedded broker, interleaved round by round so both see the same machine state.
///
/// The two paths do the same work: the same messages (one-byte key, `size`-byte value, no
/// headers, partitions chosen round-robin by the caller), produced through a topic handle
/// with a delivery report per message and librdkafka's queue kept full; consumed from the
/// beginning of every partition, reading each value's length. Each round runs the two paths
/// back to back, in alternating order (raw first on even rounds, HeraldKafka first on odd),
/// so neither always runs on the warmer or busier machine.
public struct KafkaBenchmark {
    /// One path measured once: its rate and the process's CPU time meanwhile (user + system,
    /// every thread, the embedded broker's included: the same for both paths), and its heap
    /// allocations when an allocation counter is preloaded (see `AllocationCounter`).
    public struct Sample: Sendable {
        public var rate: Double
        public var cpuSeconds: Double
        public var allocations: Int?

        public init(rate: Double, cpuSeconds: Double, allocations: Int? = nil) {
            self.rate = rate
            self.cpuSeconds = cpuSeconds
            self.allocations = allocations
        }
    }

    /// Every round of one path (produce or consume), raw and through HeraldKafka, in round order.
    public struct Result: Sendable {
        public var path: String
        public var raw: [Sample] = []
        public var herald: [Sample] = []

        public init(path: String, raw: [Sample] = [], herald: [Sample] = []) {
            self.path = path
            self.raw = raw
            self.herald = herald
        }
    }

    let messages: Int
    let size: Int
    let partitions: Int32
    let batchSize: Int
    let inFlight: Int
    let cluster: EmbeddedKafkaCluster
    let logger: Logger
    private let allocationCounter = AllocationCounter.preloaded()

    /// Starts the embedded broker the runs share.
    /// - Parameters:
    ///   - messages: messages per run; `size`: value size in bytes; `batchSize` and `inFlight`:
    ///     HeraldKafka's messages per `enqueue` call, and batches queued behind the oldest one
    ///     still awaited (`nil`: as many as librdkafka's queue holds, as the raw loop keeps it).
    public init(messages: Int, size: Int, partitions: Int32, batchSize: Int, inFlight: Int?, logger: Logger) throws {
        self.batchSize = batchSize
        self.messages = messages
        self.size = size
        self.partitions = partitions
        self.logger = logger
        cluster = try EmbeddedKafkaCluster(brokers: 1, logger: logger)
        let queueCapacity = ProducerConfiguration().queueCapacity
        self.inFlight = inFlight ?? max(1, queueCapacity / max(1, batchSize) - 1)
    }

    /// The producer settings both paths share.
    private var producerSettings: ProducerConfiguration {
        ProducerConfiguration(bootstrapServers: cluster.bootstrapServers)
    }

    /// Runs each path `rounds` times, interleaved in alternating order.
    /// - Returns: the produce and consume results, every round of each.
    public func run(rounds: Int) async throws -> [Result] {
        var produce = Result(path: "produce")
        var consume = Result(path: "consume")
        let value = [UInt8](repeating: UInt8(ascii: "x"), count: size)
        for round in 0..<rounds {
            let rawFirst = round.isMultiple(of: 2)
            let (rawTopic, heraldTopic) = (try topic("raw-\(round)"), try topic("herald-\(round)"))
            func produceRaw() throws -> Sample {
                try measure {
                    let delivered = try RawClientBaseline.produce(
                        bootstrapServers: cluster.bootstrapServers, topic: rawTopic, partitions: partitions,
                        count: messages, value: value, properties: producerSettings.properties)
                    guard delivered == messages else { throw BenchmarkError("raw produce delivered \(delivered) of \(messages)") }
                }
            }
            func produceHerald() async throws -> Sample {
                try await measureAsync { try await produceWithHerald(topic: heraldTopic, value: Data(value)) }
            }
            let produced = try await alternate(rawFirst: rawFirst, raw: produceRaw, herald: produceHerald)
            produce.raw.append(produced.raw)
            produce.herald.append(produced.herald)
            // Both consume the raw path's topic, so they read identical partitions.
            func consumeRaw() throws -> Sample {
                try measure {
                    var settings = ConsumerConfiguration(bootstrapServers: cluster.bootstrapServers, groupID: "bench-raw-\(round)")
                    settings.readCommitted = true
                    let bytes = try RawClientBaseline.consume(
                        bootstrapServers: cluster.bootstrapServers, topic: rawTopic, partitions: partitions,
                        count: messages, properties: settings.properties)
                    guard bytes == messages * size else { throw BenchmarkError("raw consume read \(bytes / size) of \(messages)") }
                }
            }
            func consumeHerald() async throws -> Sample {
                try await measureAsync { try await consumeWithHerald(topic: rawTopic, round: round) }
            }
            let consumed = try await alternate(rawFirst: rawFirst, raw: consumeRaw, herald: consumeHerald)
            consume.raw.append(consumed.raw)
            consume.herald.append(consumed.herald)
            logger.info("round \(round + 1) of \(rounds) done")
        }
        return [produce, consume]
    }

    /// Runs the two measurements back to back, raw first or HeraldKafka first.
    private func alternate(
        rawFirst: Bool, raw: () throws -> Sample, herald: () async throws -> Sample
    ) async throws -> (raw: Sample, herald: Sample) {
        if rawFirst {
            let first = try raw()
            return (first, try await herald())
        }
        let first = try await herald()
        return (try raw(), first)
    }

    private func topic(_ name: String) throws -> String {
        let topic = "bench-\(name)-\(UUID().uuidString.prefix(6))"
        try cluster.createTopic(topic, partitions: partitions)
        return topic
    }

    /// Produces like a pipelined stage: one task enqueues `batchSize` messages at a time
    /// (`enqueue` itself waits while librdkafka's queue is full, as the raw loop does), takes
    /// the reports of batches already delivered, and waits for the oldest batch only once
    /// `inFlight` batches are queued after it.
    private func produceWithHerald(topic: String, value: Data) async throws {
        let producer = try KafkaProducer(configuration: producerSettings, logger: logger)
        let key = Data("k".utf8)
        let partitions = Int(self.partitions)
        var pending: [PendingDelivery] = []  // oldest first; a delivered batch (and its messages) is let go
        var next = 0
        while next < messages {
            let range = next..<min(messages, next + batchSize)
            next = range.upperBound
            let outgoing = range.map { OutgoingMessage(topic: topic, partition: Int32($0 % partitions), key: key, value: value) }
            pending.append(try await producer.enqueue(outgoing))
            while let oldest = pending.first, pending.count > inFlight || oldest.isComplete {
                _ = try await oldest.reports()
                pending.removeFirst()
            }
        }
        for delivery in pending { _ = try await delivery.reports() }
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

    /// Measures `body` from start to end (for consume, the consumer's start — about half a
    /// second on the embedded broker, for both paths alike — included); CPU and allocations
    /// count the whole run.
    private func measure(_ body: () throws -> Void) throws -> Sample {
        let (start, cpu) = (ContinuousClock.now, ResourceUsage.now(allocationCounter))
        try body()
        return sample(over: ContinuousClock.now - start, cpu: cpu)
    }

    private func measureAsync(_ body: () async throws -> Void) async throws -> Sample {
        let (start, cpu) = (ContinuousClock.now, ResourceUsage.now(allocationCounter))
        try await body()
        return sample(over: ContinuousClock.now - start, cpu: cpu)
    }

    private func sample(over time: Duration, cpu: ResourceUsage) -> Sample {
        let used = ResourceUsage.now(allocationCounter).since(cpu)
        return Sample(rate: Double(messages) / max(time.seconds, 1e-9), cpuSeconds: used.cpuSeconds, allocations: used.allocations)
    }
}
