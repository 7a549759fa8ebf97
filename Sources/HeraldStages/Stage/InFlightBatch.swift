import Foundation
import HeraldKafka

/// A processed batch whose outputs (and dead letters) were handed to the producer and whose
/// input offsets wait until all of them are acknowledged: one slot of a `StageRunner`'s
/// pipeline.
struct InFlightBatch: Sendable {
    /// The input; empty for a tick.
    let batch: [ConsumedMessage]
    /// The messages sent, in the order `pending` reports them.
    let messages: [OutgoingMessage]
    let pending: PendingDelivery
    let started: ContinuousClock.Instant
}

extension Sequence where Element == ConsumedMessage {
    /// The partitions these messages came from.
    var partitions: [TopicPartition] { nextOffsets.map(\.topicPartition) }
}

/// A key written to a state topic.
private struct StateKey: Hashable {
    var topic: String
    var key: Data?
}

/// A message to send again and why its first attempt failed.
typealias FailedMessage = (message: OutgoingMessage, error: KafkaError)

extension [InFlightBatch] {
    /// The failed messages of each batch that still have to be written once every batch
    /// has a result: a failed write to a state topic (a compacted changelog, the last entry
    /// per key wins) is left out when a later message of these batches writes the same key
    /// to the same topic — that one, landed or re-sent itself, carries the newer state, and
    /// re-sending the older one after it would restore a stale state. Everything else that
    /// failed is kept, in order.
    /// - Parameters:
    ///   - results: per batch, one result per message.
    ///   - stateTopics: the topics written this way.
    func failuresToResend(
        _ results: [[Result<DeliveryReport, KafkaError>]], stateTopics: Set<String>
    ) -> [[FailedMessage]] {
        var lastWrite: [StateKey: (batch: Int, index: Int)] = [:]
        for (batchIndex, slot) in enumerated() {
            for (index, message) in slot.messages.enumerated() where stateTopics.contains(message.topic) {
                lastWrite[StateKey(topic: message.topic, key: message.key)] = (batchIndex, index)
            }
        }
        var failures: [[FailedMessage]] = []
        for (batchIndex, slot) in enumerated() {
            var failed: [FailedMessage] = []
            for (index, result) in results[batchIndex].enumerated() {
                guard case .failure(let error) = result else { continue }
                let message = slot.messages[index]
                if stateTopics.contains(message.topic),
                   let last = lastWrite[StateKey(topic: message.topic, key: message.key)],
                   last != (batchIndex, index) {
                    continue
                }
                failed.append((message, error))
            }
            failures.append(failed)
        }
        return failures
    }
}
