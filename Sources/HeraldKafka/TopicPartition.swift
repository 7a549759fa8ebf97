/// One partition of one topic.
public struct TopicPartition: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var topic: String
    public var partition: Int32

    public init(_ topic: String, _ partition: Int32) {
        self.topic = topic
        self.partition = partition
    }

    public var description: String { "\(topic)[\(partition)]" }

    public static func < (lhs: TopicPartition, rhs: TopicPartition) -> Bool {
        (lhs.topic, lhs.partition) < (rhs.topic, rhs.partition)
    }
}

/// A partition with an offset: a position to consume from, or an offset to store or commit
/// (for commits, the offset of the *next* message to consume).
public struct TopicPartitionOffset: Hashable, Sendable, CustomStringConvertible {
    public var topicPartition: TopicPartition
    public var offset: KafkaOffset

    public init(_ topicPartition: TopicPartition, _ offset: KafkaOffset) {
        self.topicPartition = topicPartition
        self.offset = offset
    }

    public init(_ topic: String, _ partition: Int32, _ offset: KafkaOffset) {
        self.init(TopicPartition(topic, partition), offset)
    }

    public var description: String { "\(topicPartition)@\(offset)" }
}

/// A Kafka offset, or one of librdkafka's logical offsets.
public struct KafkaOffset: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var rawValue: Int64

    public init(_ rawValue: Int64) { self.rawValue = rawValue }

    /// The oldest retained message.
    public static let beginning = KafkaOffset(-2)
    /// After the newest message.
    public static let end = KafkaOffset(-1)
    /// The group's committed offset (or `auto.offset.reset` when there is none).
    public static let stored = KafkaOffset(-1000)
    /// No offset.
    public static let invalid = KafkaOffset(-1001)

    public var isLogical: Bool { rawValue < 0 }

    public var description: String {
        switch self {
        case .beginning: "beginning"
        case .end: "end"
        case .stored: "stored"
        case .invalid: "invalid"
        default: String(rawValue)
        }
    }

    public static func < (lhs: KafkaOffset, rhs: KafkaOffset) -> Bool { lhs.rawValue < rhs.rawValue }
}
