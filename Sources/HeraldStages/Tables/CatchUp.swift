import HeraldKafka

/// How far a reader still is from the end offsets its partitions had when it started: the
/// one "read to the high watermark" of every component that reads a topic to its end —
/// followers and the reader become ready, restores and tools stop there.
///
/// A partition whose reading starts at or past its end (empty, or resumed there) is
/// complete from the start.
public struct CatchUp: Sendable {
    /// The end offset each partition still has to reach.
    public private(set) var remaining: [TopicPartition: Int64]

    /// How a bounded read (`read(from:until:keepingLater:_:)`) ended.
    public enum Outcome: Sendable {
        /// Every partition reached its end.
        case complete
        /// The deadline passed first.
        case timedOut
    }

    /// - Parameters:
    ///   - watermarks: each partition's offsets when reading starts.
    ///   - start: where reading starts, per partition; absent: the beginning.
    public init(watermarks: [TopicPartition: Watermarks], start: [TopicPartition: Int64] = [:]) {
        remaining = [:]
        for (partition, marks) in watermarks where marks.high > max(start[partition] ?? marks.low, marks.low) {
            remaining[partition] = marks.high
        }
    }

    /// The watermarks of `partitions`, asked one by one (`watermarks` is the consumer's or the admin's).
    public static func measuring(
        _ partitions: [TopicPartition], watermarks: (TopicPartition) async throws -> Watermarks
    ) async throws -> CatchUp {
        var marks: [TopicPartition: Watermarks] = [:]
        for partition in partitions { marks[partition] = try await watermarks(partition) }
        return CatchUp(watermarks: marks)
    }

    /// The partitions `0..<count` of `topic`, measured with a consumer.
    public static func measuring(topic: String, partitions count: Int32, with consumer: KafkaConsumer) async throws -> CatchUp {
        try await measuring((0..<count).map { TopicPartition(topic, $0) }) { try await consumer.watermarks($0) }
    }

    /// Every partition reached its end.
    public var isComplete: Bool { remaining.isEmpty }

    /// The partitions not at their end yet, e.g. `herald.users[2]`, sorted.
    public var pending: [String] { remaining.keys.map(\.description).sorted() }

    /// Whether a message lies before its partition's end (it is part of what is caught up with).
    public func precedesEnd(_ message: ConsumedMessage) -> Bool {
        remaining[message.topicPartition].map { message.offset < $0 } ?? false
    }

    /// Notes a consumed message.
    public mutating func advance(past message: ConsumedMessage) {
        if let end = remaining[message.topicPartition], message.offset + 1 >= end {
            remaining[message.topicPartition] = nil
        }
    }

    /// Notes that the consumer reached the end of `partition`'s log at `offset`
    /// (`ConsumerEvent.partitionEnd`): the partition is complete if that is at or past its
    /// end, even when the last offsets before it were never delivered (transaction markers,
    /// records compaction removed).
    public mutating func reachedEnd(of partition: TopicPartition, at offset: Int64) {
        if let end = remaining[partition], offset >= end {
            remaining[partition] = nil
        }
    }

    /// Notes a consumed batch.
    public mutating func advance(past batch: [ConsumedMessage]) {
        for message in batch { advance(past: message) }
    }

    /// Polls `consumer` (already assigned) until every partition reached its end, handing
    /// each message to `body` in order; stops early at `deadline`. A partition whose log ends
    /// in records no consumer receives (transaction markers, records compaction removed)
    /// completes only through the consumer's partition-end reports
    /// (`ConsumerConfiguration.reportsPartitionEnds`); without them its read times out.
    /// - Parameter keepingLater: also hand over messages past their partition's end (written
    ///   since the start); `false`: only what lies before the ends.
    public mutating func read(
        from consumer: KafkaConsumer, until deadline: ContinuousClock.Instant,
        keepingLater: Bool = true, _ body: (ConsumedMessage) throws -> Void
    ) async throws -> Outcome {
        while !isComplete {
            guard ContinuousClock.now < deadline else { return .timedOut }
            for event in await consumer.poll() {
                switch event {
                case .messages(let batch):
                    for message in batch {
                        if keepingLater || precedesEnd(message) { try body(message) }
                        advance(past: message)
                    }
                case .partitionEnd(let partition, let offset):
                    reachedEnd(of: partition, at: offset)
                default:
                    continue
                }
            }
        }
        return .complete
    }
}
