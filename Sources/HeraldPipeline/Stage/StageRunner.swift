import Foundation
import HeraldKafka
import Logging
import ServiceLifecycle

/// Connects a `StageProcessor` to Kafka: consume a batch → process → produce outputs and
/// dead letters → store offsets only after every output is acknowledged (at-least-once),
/// or commit outputs and offsets in one transaction (exactly-once).
///
/// A failed batch is retried in place with back-off and nothing of it is committed; rejected
/// input goes to the dead-letter topic and the stage keeps going. Graceful shutdown finishes
/// the batch in hand, commits, and leaves the group.
public final class StageRunner<Processor: StageProcessor>: Service {
    public let configuration: StageConfiguration
    private let processor: Processor
    private let consumer: KafkaConsumer
    private let producer: KafkaProducer
    private let readiness: Readiness?
    private let logger: Logger
    private let metrics: StageMetrics

    /// - Parameters:
    ///   - consumer: a consumer of the stage's group, not yet subscribed; the runner owns and closes it.
    ///   - producer: shared or own; transactional when `configuration.exactlyOnce`.
    public init(
        configuration: StageConfiguration, processor: Processor, consumer: KafkaConsumer, producer: KafkaProducer,
        readiness: Readiness? = nil, logger: Logger
    ) {
        self.configuration = configuration
        self.processor = processor
        self.consumer = consumer
        self.producer = producer
        self.readiness = readiness
        var logger = logger
        logger[metadataKey: PipelineLogKey.stage] = .string(configuration.name)
        self.logger = logger
        self.metrics = StageMetrics(stage: configuration.name)
        readiness?.register(readinessName)
    }

    private var readinessName: String { "stage.\(configuration.name)" }

    public func run() async throws {
        if configuration.exactlyOnce { try await producer.initTransactions() }
        try consumer.subscribe(configuration.inputTopics)
        readiness?.set(readinessName, ready: true)
        logger.info("stage started", metadata: ["topics": .string(configuration.inputTopics.joined(separator: ","))])
        defer { readiness?.set(readinessName, ready: false) }
        do {
            try await consumeUntilShutdown()
        } catch {
            await consumer.close()
            throw error
        }
        await consumer.close()
        logger.info("stage stopped")
    }

    /// Polls and handles events one poll at a time (a partition never moves while its batch
    /// is in hand), and between polls runs the processor's timers when they are due.
    private func consumeUntilShutdown() async throws {
        let interval = processor.tickInterval
        var nextTick = interval.map { ContinuousClock.now + $0 }
        while !Task.isCancelled, !Task.isShuttingDownGracefully, !consumer.isClosed {
            for event in await consumer.poll() {
                try await handle(event)
            }
            if let interval, let due = nextTick, ContinuousClock.now >= due {
                try await perform([]) { try await processor.tick() }
                nextTick = ContinuousClock.now + interval
            }
        }
    }

    private func handle(_ event: ConsumerEvent) async throws {
        switch event {
        case .messages(let batch):
            try await perform(batch) { try await processor.process(batch) }
        case .assigned(let partitions):
            try await processor.partitionsAssigned(partitions)
        case .revoked(let partitions), .lost(let partitions):
            await processor.partitionsRevoked(partitions)
        case .offsetOutOfRange(let partition, let offset, let reason):
            metrics.dataLoss.increment()
            logger.critical(
                "DATA LOSS: consumer position was not available on the broker; messages were skipped",
                metadata: [
                    PipelineLogKey.partition: .string(partition?.description ?? "?"),
                    PipelineLogKey.offset: .string(String(offset)), "reason": .string(reason),
                ])
        case .error(let error):
            metrics.errors.increment()
            logger.warning("consumer error: \(error)")
        }
    }

    /// Processes and delivers one batch (or, with no input, one tick of the timers),
    /// retrying until it succeeds, the producer fails fatally, or the service is shutting
    /// down (then nothing of the batch is committed).
    private func perform(_ batch: [ConsumedMessage], _ work: () async throws -> StageResult) async throws {
        var attempt = 0
        while true {
            let started = ContinuousClock.now
            do {
                let result = try await work()
                let deadLetters = result.rejections.map {
                    DeadLetter.message(for: $0, stage: configuration.name, topic: configuration.deadLetterTopic)
                }
                for rejection in result.rejections {
                    logger.warning("input rejected to dead letters: \(rejection.reason)", metadata: [
                        PipelineLogKey.partition: .string(rejection.message.topicPartition.description),
                        PipelineLogKey.offset: .string(String(rejection.message.offset)),
                    ])
                }
                try await deliver(result.outputs + deadLetters, for: batch)
                await processor.delivered(batch)
                metrics.consumed.increment(by: batch.count)
                metrics.produced.increment(by: result.outputs.count)
                metrics.deadLettered.increment(by: deadLetters.count)
                metrics.batchDuration.record(ContinuousClock.now - started)
                metrics.recordLag(after: batch, consumer: consumer)
                return
            } catch let error as KafkaError where error.isFatal {
                logger.critical("fatal Kafka error, stopping the stage: \(error)")
                throw error
            } catch {
                attempt += 1
                metrics.retries.increment()
                if Task.isShuttingDownGracefully || Task.isCancelled {
                    logger.notice("shutting down with a failed batch uncommitted; it will be redone: \(error)")
                    return
                }
                let pause = backoff(attempt)
                logger.error("batch failed (attempt \(attempt)), retrying in \(pause): \(error)")
                try? await Task.sleep(for: pause)
            }
        }
    }

    private func deliver(_ outputs: [OutgoingMessage], for batch: [ConsumedMessage]) async throws {
        if outputs.isEmpty, batch.isEmpty { return }
        if configuration.exactlyOnce {
            try await deliverInTransaction(outputs, offsets: batch.nextOffsets)
            return
        }
        _ = try await producer.send(outputs)
        if batch.isEmpty { return }
        let moved = try consumer.store(batch)
        if !moved.isEmpty {
            logger.notice("partitions moved while the batch was processed; their new owner redoes it",
                          metadata: [PipelineLogKey.partition: .string("\(moved)")])
        }
    }

    /// Outputs and input offsets commit together, or neither does.
    private func deliverInTransaction(_ outputs: [OutgoingMessage], offsets: [TopicPartitionOffset]) async throws(KafkaError) {
        let group = try consumer.groupMetadata()
        try producer.beginTransaction()
        var failure: KafkaError?
        do {
            _ = try await producer.send(outputs)
            if !offsets.isEmpty { try await producer.sendOffsetsToTransaction(offsets, group: group) }
            try await producer.commitTransaction()
        } catch {
            failure = error
        }
        guard let failure else { return }
        if !failure.isFatal {
            do { try await producer.abortTransaction() } catch { logger.error("abort failed: \(error)") }
        }
        throw failure
    }

    private func backoff(_ attempt: Int) -> Duration {
        let factor = 1 << min(attempt - 1, 16)
        return min(configuration.retryBackoff * factor, configuration.maxRetryBackoff)
    }
}

/// Metadata keys of HeraldPipeline's log lines.
public enum PipelineLogKey {
    public static let stage = "stage"
    public static let partition = "partition"
    public static let offset = "offset"
    public static let instance = "instance"
}
