import HeraldKafka
import Logging
import ServiceLifecycle

/// The pipelined path of at-least-once stages (`configuration.batchesInFlight` > 1): a
/// batch's outputs are handed to the producer and the runner goes on polling and processing
/// while they are acknowledged; batches complete (offsets stored, `processor.delivered`)
/// strictly in order, each only once all of its messages are acknowledged.
///
/// Per partition, the producer stores messages in the order they were enqueued (the
/// idempotent producer keeps that order through its retries), so as long as every message
/// succeeds, writes of one key — a changelog's above all — land in batch order. A message
/// that finally fails breaks that promise for what follows it, which is why a failure stops
/// the pipeline and is handled by `recover`.
extension StageRunner {
    /// Processes a batch and hands its outputs to the producer without awaiting them,
    /// after completing the oldest batches while the pipeline is full.
    /// - Returns: `false` when the service shuts down with a batch undelivered.
    func enqueue(_ batch: [ConsumedMessage], into pipeline: inout [InFlightBatch]) async throws -> Bool {
        while pipeline.count >= configuration.batchesInFlight {
            guard try await completeOldest(&pipeline) else { return false }
        }
        let started = ContinuousClock.now
        guard let result = try await processed({ try await processor.process(batch) }) else { return false }
        let messages = messagesToSend(result)
        let pending: PendingDelivery
        do {
            pending = try await producer.enqueue(messages)
        } catch where error.isFatal {
            logger.critical("fatal Kafka error, stopping the stage: \(error)")
            throw error
        } catch {
            // The producer cannot take messages now (closing): deliver what is in flight,
            // then undo this batch and handle it like an unpipelined one (retried, or left
            // uncommitted on shutdown).
            logger.error("outputs of a batch not enqueued; delivering it on its own: \(error)")
            guard try await complete(&pipeline, waiting: true) else { return false }
            try await undo(batch.partitions)
            return try await perform(batch) { try await processor.process(batch) }
        }
        pipeline.append(InFlightBatch(batch: batch, messages: messages, pending: pending, started: started))
        return true
    }

    /// Completes the batches at the head of the pipeline whose messages all have a result
    /// (`waiting`: every batch, waiting for them).
    /// - Returns: `false` when the service shuts down with a batch undelivered.
    func complete(_ pipeline: inout [InFlightBatch], waiting: Bool) async throws -> Bool {
        while let head = pipeline.first, waiting || head.pending.isComplete {
            guard try await completeOldest(&pipeline) else { return false }
        }
        return true
    }

    /// Waits for the oldest batch's results: all acknowledged, it completes; otherwise the
    /// pipeline stops and `recover` handles every batch in it.
    func completeOldest(_ pipeline: inout [InFlightBatch]) async throws -> Bool {
        guard let head = pipeline.first else { return true }
        let results = await head.pending.results()
        guard results.allSatisfy({ if case .success = $0 { true } else { false } }) else {
            return try await recover(&pipeline)
        }
        pipeline.removeFirst()
        var delivered = OutputDelivery.Delivered()
        for message in head.messages { delivery.count(message, in: &delivered) }
        try await finish(head.batch, delivered, started: head.started)
        return true
    }

    /// A message of a batch in flight failed. Nothing more is polled or processed: every
    /// batch in flight gets its results, then, in batch order —
    /// 1. the failed outputs and dead letters are re-sent (`OutputDelivery`: transient
    ///    failures again, refused ones as dead letters, all of them even when a state write
    ///    is refused); a failed state write is re-sent only when no later message writes
    ///    that key (the later state includes it);
    /// 2. the batches whose failures are all written complete, in order, up to the first
    ///    that cannot be (a state write Kafka refuses);
    /// 3. that batch and all after it are undone (their partitions revoked from the
    ///    processor and restored from the changelogs) and processed again, one at a time.
    ///
    /// Why the redo is exact: every batch's changelog writes have landed or failed by then,
    /// and no older state of a key is written after a newer one (step 1), so the restored
    /// state of each key is the newest one written. A stateful stage records in that state
    /// the last input offset it applied per partition (`AppliedOffsets`, written with the
    /// outputs of the same batch): an input the restored state covers is skipped as a replay
    /// — its outputs landed or were re-sent in step 1 — and
    /// every other input is recomputed from the restored state, its outputs written again
    /// (at-least-once: a duplicate, never a loss). Idempotent produce keeps re-sends from
    /// duplicating within the producer. This is what a restart after kill -9 relies on too.
    /// - Returns: `false` when the service shuts down with a batch undelivered.
    func recover(_ pipeline: inout [InFlightBatch]) async throws -> Bool {
        let batches = pipeline
        pipeline = []
        var results: [[Result<DeliveryReport, KafkaError>]] = []
        for slot in batches { results.append(await slot.pending.results()) }
        for case .failure(let error) in results.joined() where error.isFatal {
            logger.critical("fatal Kafka error, stopping the stage: \(error)")
            throw error
        }
        let resend = batches.failuresToResend(results, stateTopics: configuration.stateTopics)
        var delivered: [OutputDelivery.Delivered] = []
        var firstUndelivered: Int?
        for (index, slot) in batches.enumerated() {
            var counts = OutputDelivery.Delivered()
            for (message, result) in zip(slot.messages, results[index]) {
                if case .success = result { delivery.count(message, in: &counts) }
            }
            delivered.append(counts)
            let failed = resend[index]
            guard !failed.isEmpty else { continue }
            metrics.deliveryRetries.increment()
            logger.error(
                "\(failed.count) of \(slot.messages.count) messages of a batch in flight not delivered; pipeline stopped, re-sending them: \(failed[0].error)")
            do {
                let more = try await delivery.deliver(failed.map(\.message))
                delivered[index].outputs += more.outputs
                delivered[index].deadLetters += more.deadLetters
            } catch where error.isFatal {
                logger.critical("fatal Kafka error, stopping the stage: \(error)")
                throw error
            } catch {
                if Task.isShuttingDownGracefully || Task.isCancelled {
                    firstUndelivered = firstUndelivered ?? index
                    break
                }
                logger.error("batch in flight not delivered; it and the batches after it are redone: \(error)")
                firstUndelivered = firstUndelivered ?? index
            }
        }
        let complete = firstUndelivered ?? batches.count
        for index in 0..<complete {
            try await finish(batches[index].batch, delivered[index], started: batches[index].started)
        }
        guard complete < batches.count else { return true }
        if Task.isShuttingDownGracefully || Task.isCancelled {
            logger.notice("shutting down with \(batches.count - complete) batches uncommitted; they will be redone")
            return false
        }
        metrics.retries.increment()
        let redo = batches[complete...].map(\.batch)
        try? await Task.sleep(for: backoff(1))
        try await undo(redo.joined().partitions)
        for batch in redo {
            guard try await perform(batch, { try await processor.process(batch) }) else { return false }
        }
        return true
    }
}
