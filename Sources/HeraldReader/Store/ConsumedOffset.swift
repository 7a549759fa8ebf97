/// How far the reader has consumed one Kafka partition: the offset of the *next* message
/// to read. Saved in the same transaction as the rows that message produced.
public struct ConsumedOffset: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The full topic name (with the configured prefix).
    public var topic: String
    /// The partition number.
    public var partition: Int32
    /// The offset to resume from (last applied offset + 1); never negative.
    public var nextOffset: Int64

    /// Creates an offset.
    public init(topic: String, partition: Int32, nextOffset: Int64) {
        self.topic = topic
        self.partition = partition
        self.nextOffset = nextOffset
    }

    public var description: String { "\(topic)[\(partition)]@\(nextOffset)" }

    public static func < (lhs: ConsumedOffset, rhs: ConsumedOffset) -> Bool {
        (lhs.topic, lhs.partition, lhs.nextOffset) < (rhs.topic, rhs.partition, rhs.nextOffset)
    }
}
