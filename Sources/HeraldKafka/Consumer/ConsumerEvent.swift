/// What a consumer sees, in the order it happened.
///
/// Process a `.messages` batch and store its offsets before asking for the next event:
/// rebalances run only between polls, so a partition never moves away while its batch is
/// being processed, and its stored offsets are committed before the next owner starts.
public enum ConsumerEvent: Sendable {
    /// A batch of messages, in offset order per partition.
    case messages([ConsumedMessage])
    /// Partitions now assigned to this member (restore their state before processing).
    case assigned([TopicPartition])
    /// Partitions taken away after a clean hand-over (their stored offsets were committed).
    case revoked([TopicPartition])
    /// Partitions taken away without a hand-over (session lost): another member may
    /// already own them; uncommitted work will be redone there.
    case lost([TopicPartition])
    /// The position of a partition was not available on the broker (deleted by retention,
    /// or beyond the end): messages may have been skipped. Never silent.
    case offsetOutOfRange(TopicPartition?, offset: Int64, reason: String)
    /// The consumer reached the end of the partition's log: `offset` is the next offset it
    /// will fetch (the log's end then), past any records it was not given (transaction
    /// markers, records compaction removed). Only with
    /// `ConsumerConfiguration.reportsPartitionEnds`; once each time the end is reached.
    case partitionEnd(TopicPartition, offset: Int64)
    /// A consumer error that did not stop the consumer (e.g. an unknown topic).
    case error(KafkaError)
}

/// The pull-based stream of a consumer's events; each step polls librdkafka on the
/// consumer's own thread, so librdkafka's prefetch is the only buffer (back-pressure).
/// Ends when the consumer is closed or the iterating task is cancelled.
public struct ConsumerEventSequence: AsyncSequence, Sendable {
    public typealias Element = ConsumerEvent
    let consumer: KafkaConsumer

    public func makeAsyncIterator() -> Iterator { Iterator(consumer: consumer) }

    public struct Iterator: AsyncIteratorProtocol {
        let consumer: KafkaConsumer
        var buffered: [ConsumerEvent] = []
        var position = 0

        public mutating func next() async -> ConsumerEvent? {
            while position == buffered.count {
                if Task.isCancelled || consumer.isClosed { return nil }
                buffered = await consumer.poll()
                position = 0
            }
            defer { position += 1 }
            return buffered[position]
        }
    }
}
