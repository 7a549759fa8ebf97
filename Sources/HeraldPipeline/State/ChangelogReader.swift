import Foundation
import HeraldKafka

/// Reads partitions of a changelog topic from the beginning up to their end at the time of
/// the call, keeping the latest value per key (a tombstone removes the key): how a stateful
/// stage restores the state of partitions it was just assigned.
public struct ChangelogReader: Sendable {
    public let makeConsumer: @Sendable () throws -> KafkaConsumer

    public init(makeConsumer: @escaping @Sendable () throws -> KafkaConsumer) {
        self.makeConsumer = makeConsumer
    }

    /// The latest record per key, with the partition it is in.
    public func read(topic: String, partitions: [Int32], timeout: Duration = .seconds(60)) async throws -> [String: (partition: Int32, value: Data)] {
        guard !partitions.isEmpty else { return [:] }
        let consumer = try makeConsumer()
        do {
            var remaining: [TopicPartition: Int64] = [:]
            for partition in partitions {
                let marks = try await consumer.watermarks(TopicPartition(topic, partition))
                if marks.high > marks.low { remaining[TopicPartition(topic, partition)] = marks.high }
            }
            var latest: [String: (partition: Int32, value: Data)] = [:]
            if !remaining.isEmpty {
                try consumer.assign(remaining.keys.map { TopicPartitionOffset($0, .beginning) })
                let deadline = ContinuousClock.now + timeout
                while !remaining.isEmpty {
                    guard ContinuousClock.now < deadline else {
                        throw PipelineError.changelogIncomplete(topic: topic, remaining: remaining.keys.map(\.description).sorted())
                    }
                    for event in await consumer.poll() {
                        guard case .messages(let batch) = event else { continue }
                        for message in batch {
                            if let key = message.keyString {
                                latest[key] = message.value.map { (message.partition, $0) }
                            }
                            if let end = remaining[message.topicPartition], message.offset + 1 >= end {
                                remaining[message.topicPartition] = nil
                            }
                        }
                    }
                }
            }
            await consumer.close()
            return latest
        } catch {
            await consumer.close()
            throw error
        }
    }
}
