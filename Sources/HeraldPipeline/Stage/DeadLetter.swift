import Foundation
import HeraldKafka

/// The dead-letter record of rejected input: the original key, value and headers byte for
/// byte (so it can be re-driven to its source topic), plus headers saying where it came from
/// and why it was rejected (the convention of Kafka Connect's dead-letter queues).
public enum DeadLetter {
    public static let stageHeader = "herald.dlq.stage"
    public static let topicHeader = "herald.dlq.topic"
    public static let partitionHeader = "herald.dlq.partition"
    public static let offsetHeader = "herald.dlq.offset"
    public static let codeHeader = "herald.dlq.code"
    public static let reasonHeader = "herald.dlq.reason"
    public static let timeHeader = "herald.dlq.time"

    /// The message to produce to `topic` for a rejection.
    public static func message(for rejection: Rejection, stage: String, topic: String, now: Date = Date()) -> OutgoingMessage {
        let source = rejection.message
        let context = [
            MessageHeader(stageHeader, stage),
            MessageHeader(topicHeader, source.topic),
            MessageHeader(partitionHeader, String(source.partition)),
            MessageHeader(offsetHeader, String(source.offset)),
            MessageHeader(codeHeader, rejection.reason.code),
            MessageHeader(reasonHeader, rejection.reason.text),
            MessageHeader(timeHeader, String(Int64(now.timeIntervalSince1970 * 1000))),
        ]
        return OutgoingMessage(topic: topic, key: source.key, value: source.value, headers: source.headers + context)
    }

    /// A dead letter read back, for tools and tests.
    public struct Record: Sendable, Equatable {
        public var stage: String
        public var sourceTopic: String
        public var sourcePartition: Int32
        public var sourceOffset: Int64
        public var code: String
        public var reason: String
        public var key: Data?
        public var value: Data?

        public init?(_ message: ConsumedMessage) {
            let headers = message.headers
            guard let stage = headers.text(stageHeader), let topic = headers.text(topicHeader),
                  let partition = headers.text(partitionHeader).flatMap({ Int32($0) }),
                  let offset = headers.text(offsetHeader).flatMap({ Int64($0) }) else { return nil }
            self.stage = stage
            self.sourceTopic = topic
            self.sourcePartition = partition
            self.sourceOffset = offset
            self.code = headers.text(codeHeader) ?? ""
            self.reason = headers.text(reasonHeader) ?? ""
            self.key = message.key
            self.value = message.value
        }
    }
}
