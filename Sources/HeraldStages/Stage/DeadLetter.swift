import Crypto
import Foundation
import HeraldKafka
import HeraldModel

/// The dead-letter record of rejected input: the original key, value and headers byte for
/// byte (so it can be re-driven to its source topic), plus headers saying where it came from
/// and why it was rejected (the convention of Kafka Connect's dead-letter queues).
///
/// A dead letter always fits the producer's `message.max.bytes`: when the original would
/// not, it is written in a reduced form (see `fitted(_:maxBytes:)`), whose
/// `herald.dlq.value` header says `truncated` or `omitted` instead of `complete`.
public enum DeadLetter {
    /// Every header Herald adds starts with this prefix (a replay removes them).
    public static let headerPrefix = "herald.dlq."
    public static let stageHeader = "herald.dlq.stage"
    public static let topicHeader = "herald.dlq.topic"
    public static let partitionHeader = "herald.dlq.partition"
    public static let offsetHeader = "herald.dlq.offset"
    public static let codeHeader = "herald.dlq.code"
    public static let reasonHeader = "herald.dlq.reason"
    public static let timeHeader = "herald.dlq.time"
    /// The original value's size in bytes (`-1` for a null value).
    public static let originalSizeHeader = "herald.dlq.original-size"
    /// The SHA-256 of the original value, lowercase hex (absent for a null value).
    public static let digestHeader = "herald.dlq.sha256"
    /// How much of the original value the dead letter holds: `complete`, `truncated` or `omitted`.
    public static let valueHeader = "herald.dlq.value"
    /// `omitted` when the original key or headers were left out to fit (absent otherwise).
    public static let keyHeader = "herald.dlq.key"
    public static let headersHeader = "herald.dlq.headers"

    /// The code of an output that Kafka refused for itself (e.g. over `message.max.bytes`):
    /// its dead letter names the output's topic and partition, offset `-1`.
    public static let outputRejectedCode = "OUTPUT_REJECTED"

    /// The message to produce to `topic` for a rejection, reduced to fit `maxBytes`.
    public static func message(
        for rejection: Rejection, stage: String, topic: String, maxBytes: Int, now: Date = Date()
    ) -> OutgoingMessage {
        let source = rejection.message
        let letter = OutgoingMessage(
            topic: topic, key: source.key, value: source.value,
            headers: source.headers + context(
                stage: stage, topic: source.topic, partition: source.partition, offset: source.offset,
                reason: rejection.reason, value: source.value, now: now))
        return fitted(letter, maxBytes: maxBytes)
    }

    /// The dead letter of an output Kafka refused for itself, reduced to fit `maxBytes`.
    public static func message(
        forOutput output: OutgoingMessage, error: KafkaError, stage: String, topic: String, maxBytes: Int,
        now: Date = Date()
    ) -> OutgoingMessage {
        let reason = Rejection.Reason(code: outputRejectedCode, "\(error)")
        let letter = OutgoingMessage(
            topic: topic, key: output.key, value: output.value,
            headers: output.headers + context(
                stage: stage, topic: output.topic, partition: output.partition ?? -1, offset: -1,
                reason: reason, value: output.value, now: now))
        return fitted(letter, maxBytes: maxBytes)
    }

    /// Whether a message is a dead letter (carries Herald's dead-letter headers).
    public static func isDeadLetter(_ message: OutgoingMessage) -> Bool {
        message.headers.contains { $0.name == stageHeader }
    }

    private static func context(
        stage: String, topic: String, partition: Int32, offset: Int64, reason: Rejection.Reason, value: Data?, now: Date
    ) -> [MessageHeader] {
        var headers = [
            MessageHeader(stageHeader, stage),
            MessageHeader(topicHeader, topic),
            MessageHeader(partitionHeader, String(partition)),
            MessageHeader(offsetHeader, String(offset)),
            MessageHeader(codeHeader, reason.code),
            MessageHeader(reasonHeader, reason.text),
            MessageHeader(timeHeader, String(EpochMilliseconds.of(now))),
            MessageHeader(originalSizeHeader, String(value?.count ?? -1)),
        ]
        if let value { headers.append(MessageHeader(digestHeader, digest(value))) }
        headers.append(MessageHeader(valueHeader, ValueForm.complete.rawValue))
        return headers
    }

    /// Lowercase hex SHA-256.
    static func digest(_ data: Data) -> String {
        SHA256.hash(data: data).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }

    /// How much of the original value a dead letter holds.
    public enum ValueForm: String, Sendable {
        case complete, truncated, omitted
    }
}
