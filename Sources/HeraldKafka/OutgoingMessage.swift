import Foundation

/// A message to produce. With no `partition`, the default partitioner (murmur2 of the key,
/// as in the Java client) chooses; co-partitioned topics rely on that.
public struct OutgoingMessage: Sendable {
    public var topic: String
    public var partition: Int32?
    public var key: Data?
    /// `nil` produces a tombstone (deletes the key in a compacted topic).
    public var value: Data?
    public var headers: [MessageHeader]

    public init(topic: String, partition: Int32? = nil, key: Data? = nil, value: Data?, headers: [MessageHeader] = []) {
        self.topic = topic
        self.partition = partition
        self.key = key
        self.value = value
        self.headers = headers
    }

    public init(topic: String, partition: Int32? = nil, key: String?, value: Data?, headers: [MessageHeader] = []) {
        self.init(topic: topic, partition: partition, key: key.map { Data($0.utf8) }, value: value, headers: headers)
    }

    /// An upper bound of the size the producer compares with `message.max.bytes`: key,
    /// value and headers with the record's framing (librdkafka's `rd_kafka_msg_max_wire_size`
    /// counts at most 5-byte varints per length and about 40 bytes of record overhead).
    public var wireSize: Int {
        Self.recordOverhead + (key?.count ?? 0) + (value?.count ?? 0) + headers.reduce(0) { $0 + $1.wireSize }
    }

    /// Bytes a record adds to its key, value and headers, rounded up.
    public static let recordOverhead = 64
}

/// Where a produced message was stored, from its delivery report. Only the producer makes
/// them (its memberwise initializer is internal).
public struct DeliveryReport: Hashable, Sendable, CustomStringConvertible {
    public var topicPartition: TopicPartition
    public var offset: Int64

    public var description: String { "\(topicPartition)@\(offset)" }
}
