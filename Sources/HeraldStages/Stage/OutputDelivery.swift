import Foundation
import HeraldKafka
import Logging
import ServiceLifecycle

/// Sends a batch's outputs and dead letters so that no single message can stop a partition.
///
/// Each message has its own outcome: what Kafka acknowledged is never sent again; a
/// transient failure re-sends only the failed messages, with back-off; a message Kafka
/// refuses for itself (`KafkaError.rejectsMessage`: too large, an invalid record) is not
/// retried as it is. An output so refused becomes a dead letter (`OUTPUT_REJECTED`); a dead
/// letter so refused is re-sent smaller (see `DeadLetter.fitted`), down to its headers alone,
/// and only when even that is refused is it dropped — logged at critical and counted in
/// `herald_stage_dead_letters_unwritable_total`. So every delivery ends.
struct OutputDelivery: Sendable {
    let producer: KafkaProducer
    let deadLetterTopic: String
    let logger: Logger
    /// Also names the stage (in dead letters).
    let metrics: StageMetrics
    let retry: RetryPolicy
    /// Outputs to these topics are never set aside (`StageConfiguration.stateTopics`).
    var stateTopics: Set<String> = []

    /// How many messages of each kind were finally written.
    struct Delivered {
        var outputs = 0
        var deadLetters = 0
    }

    /// Sends until every message is acknowledged or replaced (at-least-once).
    /// - Throws: a fatal `KafkaError` at once; the last transient error when the service
    ///   shuts down before everything is acknowledged (then nothing may be committed); the
    ///   refusal of a state output, once every other message is acknowledged or replaced
    ///   (the batch is then redone from restored state, which may already cover the input
    ///   of those others: they must not be left out).
    func deliver(_ messages: [OutgoingMessage]) async throws(KafkaError) -> Delivered {
        var pending = messages
        var delivered = Delivered()
        var attempt = 0
        var refusedState: KafkaError?
        while !pending.isEmpty {
            let results = try await producer.sendAll(pending)
            var again: [OutgoingMessage] = []
            var transient: KafkaError?
            for (message, result) in zip(pending, results) {
                switch result {
                case .success:
                    count(message, in: &delivered)
                case .failure(let error) where error.isFatal:
                    throw error
                case .failure(let error) where error.rejectsMessage:
                    do throws(KafkaError) {
                        if let replacement = try replacement(for: message, refusedWith: error) { again.append(replacement) }
                    } catch {
                        refusedState = refusedState ?? error
                    }
                case .failure(let error):
                    transient = transient ?? error
                    again.append(message)
                }
            }
            pending = again
            guard let transient else { continue }
            attempt += 1
            metrics.deliveryRetries.increment()
            if Task.isShuttingDownGracefully || Task.isCancelled { throw transient }
            let pause = retry.pause(after: attempt)
            logger.error(
                "\(pending.count) of \(results.count) messages not delivered (attempt \(attempt)); re-sending only those in \(pause): \(transient)")
            try? await Task.sleep(for: pause)
        }
        if let refusedState { throw refusedState }
        return delivered
    }

    /// Outputs over the producer's `message.max.bytes` replaced by their dead letters before
    /// they are sent (the transactional path: there one refused message aborts everything).
    func precheckingSizes(_ messages: [OutgoingMessage]) throws(KafkaError) -> [OutgoingMessage] {
        let limit = producer.maxMessageBytes
        var checked: [OutgoingMessage] = []
        for message in messages {
            guard message.wireSize > limit else {
                checked.append(message)
                continue
            }
            let error = KafkaError(
                code: .messageSizeTooLarge, reason: "message of \(message.wireSize) bytes exceeds message.max.bytes \(limit)",
                operation: "produce to \(message.topic)")
            if let replacement = try replacement(for: message, refusedWith: error) { checked.append(replacement) }
        }
        return checked
    }

    /// What to send instead of a message Kafka refused for itself; `nil`: nothing (dropped, logged and counted).
    /// - Throws: the error, for an output to a state topic (the batch is retried).
    func replacement(for message: OutgoingMessage, refusedWith error: KafkaError) throws(KafkaError) -> OutgoingMessage? {
        if stateTopics.contains(message.topic) {
            var failure = error
            failure.reason = "state output of \(message.wireSize) bytes to \(message.topic) refused; the batch is retried: \(error.reason)"
            throw failure
        }
        guard DeadLetter.isDeadLetter(message) else {
            metrics.outputsRejected.increment()
            logger.error("output refused by Kafka, written to dead letters: \(error)", metadata: ["topic": .string(message.topic)])
            return DeadLetter.message(
                forOutput: message, error: error, stage: metrics.stage, topic: deadLetterTopic, maxBytes: producer.maxMessageBytes)
        }
        let minimal = DeadLetter.minimal(message)
        guard minimal.wireSize < message.wireSize else {
            metrics.deadLettersUnwritable.increment()
            logger.critical("dead letter refused by Kafka even without key, value and original headers; dropped: \(error)", metadata: [
                "source": .string("\(message.headers.text(DeadLetter.topicHeader) ?? "?")[\(message.headers.text(DeadLetter.partitionHeader) ?? "?")]@\(message.headers.text(DeadLetter.offsetHeader) ?? "?")"),
                "code": .string(message.headers.text(DeadLetter.codeHeader) ?? "?"),
            ])
            return nil
        }
        let smaller = DeadLetter.fitted(message, maxBytes: message.wireSize / 4)
        logger.warning("dead letter refused by Kafka (\(error)); re-sending it reduced to \(smaller.wireSize) bytes")
        return smaller.wireSize < message.wireSize ? smaller : minimal
    }

    /// Counts a message that was written.
    func count(_ message: OutgoingMessage, in delivered: inout Delivered) {
        guard DeadLetter.isDeadLetter(message) else {
            delivered.outputs += 1
            return
        }
        delivered.deadLetters += 1
        if message.headers.text(DeadLetter.valueHeader) != DeadLetter.ValueForm.complete.rawValue {
            metrics.deadLettersReduced.increment()
        }
    }

}

extension OutputDelivery {
    /// A delivery outside any stage runner (followers, loaders): the context's producer and
    /// dead-letter topic, the default retry policy.
    init(context: StageContext, metrics: StageMetrics) {
        self.init(
            producer: context.producer, deadLetterTopic: context.deadLetterTopic, logger: context.logger,
            metrics: metrics, retry: RetryPolicy())
    }
}
