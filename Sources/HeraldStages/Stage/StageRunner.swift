import Foundation
import HeraldKafka
import Logging
import ServiceLifecycle

/// Connects a `StageProcessor` to Kafka: consume a batch → process → produce outputs and
/// dead letters → store offsets only after every output is acknowledged (at-least-once),
/// or commit outputs and offsets in one transaction (exactly-once).
///
/// At-least-once, up to `configuration.batchesInFlight` batches' outputs wait for their
/// acknowledgements while the next batches are polled and processed (see
/// `StageRunner+Pipeline.swift`); offsets are stored and `processor.delivered` is called
/// strictly in batch order, each once all of its batch's outputs are acknowledged.
///
/// A batch the processor fails is retried in place with back-off; rejected input goes to
/// the dead-letter topic and the stage keeps going. Delivery is per message
/// (`OutputDelivery`): a transient failure re-sends only what was not acknowledged, and a
/// message Kafka refuses for itself is set aside as a dead letter instead of stalling the
/// partition. A batch whose delivery still fails (a state output refused, a transaction
/// aborted) is undone — the processor's state of its partitions revoked and restored from
/// the changelogs — and processed again. Graceful shutdown delivers the batches in hand,
/// stores their offsets, and the consumer commits them as it leaves the group.
public final class StageRunner<Processor: StageProcessor>: Service, ReadinessReporting {
    public let configuration: StageConfiguration
    let processor: Processor
    let consumer: KafkaConsumer
    let producer: KafkaProducer
    private let readiness: Readiness?
    let logger: Logger
    let metrics: StageMetrics
    let delivery: OutputDelivery

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

    /// Polls and handles events one poll at a time, and between polls completes the batches
    /// in flight that are acknowledged and runs the processor's timers when they are due
    /// (after every batch in flight is delivered: a tick never overlaps a batch).
    private func consumeUntilShutdown() async throws {
        let interval = processor.tickInterval
        var nextTick = interval.map { ContinuousClock.now + $0 }
        var pipeline: [InFlightBatch] = []
        while !Task.isCancelled, !Task.isShuttingDownGracefully, !consumer.isClosed {
            for event in await consumer.poll() {
                guard try await handle(event, pipeline: &pipeline) else { return }
            }
            guard try await complete(&pipeline, waiting: false) else { return }
            if let interval, let due = nextTick, ContinuousClock.now >= due {
                guard try await complete(&pipeline, waiting: true),
                      try await perform([], { try await processor.tick() }) else { return }
                nextTick = ContinuousClock.now + interval
            }
        }
        _ = try await complete(&pipeline, waiting: true)
    }

    /// - Returns: `false` when a batch was left undelivered because the service is shutting
    ///   down: nothing after it may be stored, so the stage stops handling input.
    private func handle(_ event: ConsumerEvent, pipeline: inout [InFlightBatch]) async throws -> Bool {
        switch event {
        case .messages(let batch):
            guard configuration.batchesInFlight > 1, !configuration.exactlyOnce else {
                guard try await complete(&pipeline, waiting: true) else { return false }
                return try await perform(batch) { try await processor.process(batch) }
            }
            let size = max(1, configuration.pipelinedBatchSize)
            for start in stride(from: 0, to: batch.count, by: size) {
                guard try await enqueue(Array(batch[start..<min(batch.count, start + size)]), into: &pipeline) else { return false }
            }
        case .assigned(let partitions):
            guard try await complete(&pipeline, waiting: true), try await restore(partitions) else { return false }
        case .revoked(let partitions), .lost(let partitions):
            // The partitions are gone already (what was stored was committed during the
            // poll). Batches of them still in flight are delivered first, in order; their
            // offsets are refused, so the new owner redoes them (at-least-once).
            guard try await complete(&pipeline, waiting: true) else { return false }
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
        case .partitionEnd:
            break // Stage consumers do not ask for these (`reportsPartitionEnds` is off).
        }
        return true
    }

    /// Runs the processor until it returns, retrying with back-off. Nothing of a failed
    /// attempt stays behind: a processor stages its changes only as it returns.
    /// - Returns: `nil` when the service shuts down first (the batch is not committed).
    func processed(_ work: () async throws -> StageResult) async throws -> StageResult? {
        try await retrying("batch failed", work)
    }

    /// Processes and delivers one batch (or, with no input, one tick of the timers) before
    /// anything else, retrying until it succeeds, the producer fails fatally, or the service
    /// is shutting down. A delivery that fails is undone (`undo`) before the batch is
    /// processed again, so it is recomputed from the state before it.
    /// - Returns: `false` when the service shut down first (nothing of the batch is committed).
    func perform(_ batch: [ConsumedMessage], _ work: () async throws -> StageResult) async throws -> Bool {
        let undoFailedDelivery = { try await self.undo(batch.isEmpty ? self.consumer.assignment() : batch.partitions) }
        let performed = try await retrying("batch not delivered, its state undone", beforeRetry: undoFailedDelivery) {
            let started = ContinuousClock.now
            guard let result = try await processed(work) else { return false }
            let delivered = try await deliver(messagesToSend(result), for: batch)
            try await finish(batch, delivered, started: started)
            return true
        }
        return performed ?? false
    }

    /// Runs `body` until it returns, with back-off between attempts; a fatal Kafka error
    /// stops the stage at once.
    /// - Parameters:
    ///   - failure: what a failed attempt is logged as.
    ///   - beforeRetry: what undoes a failed attempt before the next one.
    /// - Returns: `nil` when the service shuts down with the work undone (it is redone after
    ///   the restart).
    private func retrying<Value>(
        _ failure: String, beforeRetry: () async throws -> Void = {}, _ body: () async throws -> Value
    ) async throws -> Value? {
        var attempt = 0
        while true {
            do {
                return try await body()
            } catch let error as KafkaError where error.isFatal {
                logger.critical("fatal Kafka error, stopping the stage: \(error)")
                throw error
            } catch {
                attempt += 1
                metrics.retries.increment()
                if Task.isShuttingDownGracefully || Task.isCancelled {
                    logger.notice("shutting down with a failed batch uncommitted; it will be redone: \(error)")
                    return nil
                }
                let pause = backoff(attempt)
                logger.error("\(failure) (attempt \(attempt)), retrying in \(pause): \(error)")
                try? await Task.sleep(for: pause)
                try await beforeRetry()
            }
        }
    }

    /// A batch's outputs and the dead letters of its rejected input (each rejection logged).
    func messagesToSend(_ result: StageResult) -> [OutgoingMessage] {
        guard !result.rejections.isEmpty else { return result.outputs }
        let maxBytes = producer.maxMessageBytes
        var messages = result.outputs
        for rejection in result.rejections {
            logger.warning("input rejected to dead letters: \(rejection.reason)", metadata: [
                PipelineLogKey.partition: .string(rejection.message.topicPartition.description),
                PipelineLogKey.offset: .string(String(rejection.message.offset)),
            ])
            messages.append(DeadLetter.message(
                for: rejection, stage: configuration.name, topic: configuration.deadLetterTopic, maxBytes: maxBytes))
        }
        return messages
    }

    private func deliver(_ outputs: [OutgoingMessage], for batch: [ConsumedMessage]) async throws -> OutputDelivery.Delivered {
        if outputs.isEmpty, batch.isEmpty { return OutputDelivery.Delivered() }
        if configuration.exactlyOnce {
            return try await deliverInTransaction(outputs, offsets: batch.nextOffsets)
        }
        return try await delivery.deliver(outputs)
    }

    /// A batch is delivered: its offsets are stored (at-least-once; exactly-once committed
    /// them with its outputs) and the processor is told.
    func finish(_ batch: [ConsumedMessage], _ delivered: OutputDelivery.Delivered, started: ContinuousClock.Instant) async throws {
        if !batch.isEmpty, !configuration.exactlyOnce {
            let moved = try consumer.store(batch)
            if !moved.isEmpty {
                logger.notice("partitions moved while the batch was processed; their new owner redoes it",
                              metadata: [PipelineLogKey.partition: .string("\(moved)")])
            }
        }
        await processor.delivered(batch)
        metrics.consumed.increment(by: batch.count)
        metrics.produced.increment(by: delivered.outputs)
        metrics.deadLettered.increment(by: delivered.deadLetters)
        metrics.batchDuration.record(ContinuousClock.now - started)
        metrics.recordLag(after: batch, consumer: consumer)
    }

    /// Drops what the processor staged for batches that were not delivered, by revoking
    /// these partitions from it and restoring them from the changelogs — what a rebalance
    /// does — so the batches are processed again from the state before them.
    func undo(_ partitions: [TopicPartition]) async throws {
        guard !partitions.isEmpty else { return }
        await processor.partitionsRevoked(partitions)
        // Shutting down with the state dropped: nothing may be processed from it.
        guard try await restore(partitions) else { throw CancellationError() }
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
    /// - Returns: `false` when the service shuts down first — a clean stop, not an error
    ///   (nothing of those partitions was processed; a restore waiting for the subscription
    ///   table, cancelled by the shutdown, made `HeraldRuntime.run()` throw before).
    private func restore(_ partitions: [TopicPartition]) async throws -> Bool {
        var attempt = 0
        while true {
            do {
                try await processor.partitionsAssigned(partitions)
                return true
            } catch let error as KafkaError where error.isFatal {
                throw error
            } catch {
                if Task.isShuttingDownGracefully || Task.isCancelled {
                    logger.notice("shutting down before the state of assigned partitions was restored: \(error)")
                    return false
                }
                attempt += 1
                metrics.restoreFailures.increment()
                let pause = backoff(attempt)
                logger.critical("state of assigned partitions not restored (attempt \(attempt)), retrying in \(pause): \(error)",
                                metadata: [PipelineLogKey.partition: .string(partitions.map(\.description).joined(separator: ","))])
                try? await Task.sleep(for: pause)
            }
        }
    }

    func backoff(_ attempt: Int) -> Duration { configuration.retry.pause(after: attempt) }
}

/// Metadata keys of HeraldStages's log lines.
public enum PipelineLogKey {
    public static let stage = "stage"
    public static let partition = "partition"
    public static let offset = "offset"
    public static let instance = "instance"
}
