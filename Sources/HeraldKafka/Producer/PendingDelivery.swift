/// Messages handed to a producer whose delivery reports may still be coming: what
/// `KafkaProducer.enqueue` returns.
///
/// Enqueue the next messages at once and await this later — typically just before storing
/// the offsets of the input the messages came from — so librdkafka's queue stays full while
/// earlier deliveries complete. Reports complete in the background whether or not anyone
/// awaits them; awaiting more than once, or after completion, returns at once.
public struct PendingDelivery: Sendable {
    let messages: [OutgoingMessage]
    /// Consecutive parts of `messages`, each at most `DeliveryTracker.maxBatchSize` long.
    let batches: [DeliveryBatch]

    /// The number of messages.
    public var count: Int { messages.count }

    /// Whether every message has its result (awaiting `results()` returns at once).
    public var isComplete: Bool { batches.allSatisfy(\.isComplete) }

    /// Waits until each message has a result: its delivery report, or why it was not
    /// delivered (after librdkafka's retries). A message refused for itself
    /// (`KafkaError.rejectsMessage`, e.g. over `message.max.bytes`) fails alone.
    /// - Returns: one result per message, in the order enqueued.
    public func results() async -> [Result<DeliveryReport, KafkaError>] {
        var results: [Result<DeliveryReport, KafkaError>] = []
        results.reserveCapacity(messages.count)
        await forEachResult { _, result in results.append(result) }
        return results
    }

    /// Waits until every message is acknowledged (all or nothing).
    /// - Returns: one report per message, in the order enqueued.
    /// - Throws: `KafkaError` after all have a result, when any failed: the first failure,
    ///   its reason prefixed with how many failed (the others may have been stored).
    public func reports() async throws(KafkaError) -> [DeliveryReport] {
        var reports: [DeliveryReport] = []
        reports.reserveCapacity(messages.count)
        var failures = 0
        var first: (index: Int, error: KafkaError)?
        await forEachResult { index, result in
            switch result {
            case .success(let report): reports.append(report)
            case .failure(let error):
                failures += 1
                first = first ?? (index, error)
            }
        }
        guard let (index, error) = first else { return reports }
        var summary = error
        summary.reason = "\(failures) of \(messages.count) messages not delivered; "
            + "first (#\(index) to \(messages[index].topic)): \(error.reason)"
        throw summary
    }

    /// Waits for each batch in turn and calls `body` with each message's index and result.
    private func forEachResult(_ body: (Int, Result<DeliveryReport, KafkaError>) -> Void) async {
        var base = 0
        for batch in batches {
            let outcome = await batch.outcome()
            for index in outcome.offsets.indices {
                if !outcome.errors.isEmpty, let error = outcome.errors[index] {
                    body(base + index, .failure(error))
                } else {
                    body(base + index, .success(DeliveryReport(
                        topicPartition: TopicPartition(messages[base + index].topic, outcome.partitions[index]),
                        offset: outcome.offsets[index])))
                }
            }
            base += outcome.offsets.count
        }
    }
}
