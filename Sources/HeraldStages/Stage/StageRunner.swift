import Foundation
import HeraldKafka
import Logging
import ServiceLifecycle

/// Connects a `StageProcessor` to Kafka: consume a batch → process → produce outputs and
/// dead letters → store offsets only after every output is acknowledged (at-least-once),
/// or commit outputs and offsets in one transaction (exactly-once).
///
/// A failed batch is retried in place with back-off and nothing of it is committed; rejected
/// input goes to the dead-letter topic and the stage keeps going. Delivery is per message
/// (`OutputDelivery`): a transient failure re-sends only what was not acknowledged, and a
/// message Kafka refuses for itself is set aside as a dead letter instead of stalling the
/// partition. Graceful shutdown finishes the batch in hand, commits, and leaves the group.
public final class StageRunner<Processor: StageProcessor>: Service, ReadinessReporting {
    public let configuration: StageConfiguration
    private let processor: Processor
    private let consumer: KafkaConsumer
    private let producer: KafkaProducer
    private let readiness: Readiness?
    private let logger: Logger
    private let metrics: StageMetrics
    private let delivery: OutputDelivery

    /// - Parameters:
    ///   - consumer: a consumer of the stage's group, not yet subscribed; the runner owns and closes it.
    ///   - producer: the stage's own (transactional, with `configuration.exactlyOnce`); `nil`: the context's.
    ///   - context: the readiness the stage reports to and the logger.
    public init(
        configuration: StageConfiguration, processor: Processor, consumer: KafkaConsumer, producer: KafkaProducer? = nil,
        context: StageContext
    ) {
        let producer = producer ?? context.producer
        self.configuration = configuration
        self.processor = processor
        self.consumer = consumer
        self.producer = producer
        self.readiness = context.readiness
        var logger = context.logger
        logger[metadataKey: PipelineLogKey.stage] = .string(configuration.name)
        self.logger = logger
        let metrics = StageMetrics(stage: configuration.name)
        self.metrics = metrics
        self.delivery = OutputDelivery(
            producer: producer, deadLetterTopic: configuration.deadLetterTopic,
            logger: logger, metrics: metrics, retry: configuration.retry,
            stateTopics: configuration.stateTopics)
    }

    private var readinessName: String { "stage.\(configuration.name)" }

    /// `stage.<name>`: ready while the stage consumes.
    public var readinessConditions: [String] { [readinessName] }

    public func run() async throws {
        readiness?.register(readinessName)
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
            try await restore(partitions)
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
                let maxBytes = producer.maxMessageBytes
                let deadLetters = result.rejections.map {
                    DeadLetter.message(for: $0, stage: configuration.name, topic: configuration.deadLetterTopic, maxBytes: maxBytes)
                }
                for rejection in result.rejections {
                    logger.warning("input rejected to dead letters: \(rejection.reason)", metadata: [
                        PipelineLogKey.partition: .string(rejection.message.topicPartition.description),
                        PipelineLogKey.offset: .string(String(rejection.message.offset)),
                    ])
                }
                let delivered = try await deliver(result.outputs + deadLetters, for: batch)
                await processor.delivered(batch)
                metrics.consumed.increment(by: batch.count)
                metrics.produced.increment(by: delivered.outputs)
                metrics.deadLettered.increment(by: delivered.deadLetters)
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

    private func deliver(_ outputs: [OutgoingMessage], for batch: [ConsumedMessage]) async throws -> OutputDelivery.Delivered {
        if outputs.isEmpty, batch.isEmpty { return OutputDelivery.Delivered() }
        if configuration.exactlyOnce {
            return try await deliverInTransaction(outputs, offsets: batch.nextOffsets)
        }
        let delivered = try await delivery.deliver(outputs)
        if batch.isEmpty { return delivered }
        let moved = try consumer.store(batch)
        if !moved.isEmpty {
            logger.notice("partitions moved while the batch was processed; their new owner redoes it",
                          metadata: [PipelineLogKey.partition: .string("\(moved)")])
        }
        return delivered
    }

    /// Outputs and input offsets commit together, or neither does. One refused message
    /// aborts the whole transaction, so outputs over the producer's `message.max.bytes` are
    /// replaced by their dead letters before it begins (dead letters are built to fit); a
    /// message the broker still refuses for itself (its own limit is lower) is replaced the
    /// same way and the transaction redone without re-processing the batch. Any other
    /// failure aborts and the batch is redone.
    private func deliverInTransaction(
        _ outputs: [OutgoingMessage], offsets: [TopicPartitionOffset]
    ) async throws(KafkaError) -> OutputDelivery.Delivered {
        var messages = try delivery.precheckingSizes(outputs)
        while true {
            let group = try consumer.groupMetadata()
            try producer.beginTransaction()
            var failure: KafkaError?
            var refused: [Int: KafkaError] = [:]
            do {
                for (index, result) in try await producer.sendAll(messages).enumerated() {
                    guard case .failure(let error) = result else { continue }
                    if error.rejectsMessage { refused[index] = error } else { failure = failure ?? error }
                }
                if failure == nil, refused.isEmpty {
                    if !offsets.isEmpty { try await producer.sendOffsetsToTransaction(offsets, group: group) }
                    try await producer.commitTransaction()
                    var delivered = OutputDelivery.Delivered()
                    for message in messages { delivery.count(message, in: &delivered) }
                    return delivered
                }
            } catch {
                failure = error
            }
            if let failure, failure.isFatal { throw failure }
            do { try await producer.abortTransaction() } catch { logger.error("abort failed: \(error)") }
            if let failure { throw failure }
            var replaced: [OutgoingMessage] = []
            for (index, message) in messages.enumerated() {
                guard let error = refused[index] else {
                    replaced.append(message)
                    continue
                }
                if let replacement = try delivery.replacement(for: message, refusedWith: error) { replaced.append(replacement) }
            }
            messages = replaced
        }
    }

    /// Restores the state of newly assigned partitions, retrying with back-off until it
    /// succeeds or the service shuts down: a partition whose state cannot be restored (a
    /// changelog not read in time, an entry that does not decode) is never processed from
    /// a wrong state. Each failure is logged at critical and counted.
    private func restore(_ partitions: [TopicPartition]) async throws {
        var attempt = 0
        while true {
            do {
                try await processor.partitionsAssigned(partitions)
                return
            } catch let error as KafkaError where error.isFatal {
                throw error
            } catch {
                attempt += 1
                metrics.restoreFailures.increment()
                if Task.isShuttingDownGracefully || Task.isCancelled { throw error }
                let pause = backoff(attempt)
                logger.critical("state of assigned partitions not restored (attempt \(attempt)), retrying in \(pause): \(error)",
                                metadata: [PipelineLogKey.partition: .string(partitions.map(\.description).joined(separator: ","))])
                try? await Task.sleep(for: pause)
            }
        }
    }

    private func backoff(_ attempt: Int) -> Duration { configuration.retry.pause(after: attempt) }
}

/// Metadata keys of HeraldStages's log lines.
public enum PipelineLogKey {
    public static let stage = "stage"
    public static let partition = "partition"
    public static let offset = "offset"
    public static let instance = "instance"
}
