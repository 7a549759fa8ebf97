import Foundation

/// A message read from a partition.
public struct ConsumedMessage: Sendable {
    public var topicPartition: TopicPartition
    public var offset: Int64
    public var key: Data?
    /// `nil` for a tombstone.
    public var value: Data?
    public var headers: [MessageHeader]
    /// Milliseconds since 1970 (create or log-append time), when the broker gave one.
    public var timestamp: Int64?

    public init(
        topicPartition: TopicPartition, offset: Int64, key: Data?, value: Data?,
        headers: [MessageHeader] = [], timestamp: Int64? = nil
    ) {
        self.topicPartition = topicPartition
        self.offset = offset
        self.key = key
        self.value = value
        self.headers = headers
        self.timestamp = timestamp
    }

    public var topic: String { topicPartition.topic }
    public var partition: Int32 { topicPartition.partition }
    /// The key decoded as UTF-8.
    public var keyString: String? { key.map { String(decoding: $0, as: UTF8.self) } }
}

extension Sequence where Element == ConsumedMessage {
    /// The offsets to store or commit once these messages are processed:
    /// per partition, one past the highest offset seen.
    public var nextOffsets: [TopicPartitionOffset] {
        var highest: [TopicPartition: Int64] = [:]
        for message in self where message.offset > highest[message.topicPartition, default: -1] {
            highest[message.topicPartition] = message.offset
        }
        return highest.sorted { $0.key < $1.key }.map { TopicPartitionOffset($0.key, KafkaOffset($0.value + 1)) }
    }
}
