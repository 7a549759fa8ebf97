import Foundation
import HeraldKafka

extension DeadLetter {
    /// A dead letter read back, for tools and tests.
    public struct Record: Sendable, Equatable {
        public var stage: String
        public var sourceTopic: String
        /// `-1` for an output refused before it had a partition.
        public var sourcePartition: Int32
        /// `-1` for an output (`OUTPUT_REJECTED`): it was never stored.
        public var sourceOffset: Int64
        public var code: String
        public var reason: String
        /// Milliseconds since 1970 when it was dead-lettered; `nil` when absent.
        public var time: Int64?
        public var key: Data?
        public var value: Data?
        /// The original headers (Herald's `herald.dlq.*` headers removed), as a replay sends them.
        public var originalHeaders: [MessageHeader]
        /// How much of the original value `value` holds (`complete` for older dead letters).
        public var valueForm: ValueForm
        /// Whether the original key and headers are all here.
        public var keyAndHeadersComplete: Bool
        /// The original value's size (`-1`: null), and its SHA-256 in hex, when recorded.
        public var originalSize: Int?
        public var sha256: String?
        /// Where the dead letter itself is stored.
        public var deadLetterPartition: Int32
        public var deadLetterOffset: Int64

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
            self.time = headers.text(timeHeader).flatMap { Int64($0) }
            self.key = message.key
            self.value = message.value
            self.originalHeaders = headers.filter { !$0.name.hasPrefix(headerPrefix) }
            self.valueForm = headers.text(valueHeader).flatMap(ValueForm.init(rawValue:)) ?? .complete
            self.keyAndHeadersComplete = headers.text(keyHeader) == nil && headers.text(headersHeader) == nil
            self.originalSize = headers.text(originalSizeHeader).flatMap { Int($0) }
            self.sha256 = headers.text(digestHeader)
            self.deadLetterPartition = message.partition
            self.deadLetterOffset = message.offset
        }

        /// Whether `replay` can re-produce the original exactly.
        public var isReplayable: Bool { valueForm == .complete && keyAndHeadersComplete }

        /// The original message, as it was in its source topic (partition chosen by key).
        public var original: OutgoingMessage {
            OutgoingMessage(topic: sourceTopic, key: key, value: value, headers: originalHeaders)
        }
    }
}
