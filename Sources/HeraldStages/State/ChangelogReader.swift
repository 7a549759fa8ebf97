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
            var catchUp = try await CatchUp.measuring(partitions.map { TopicPartition(topic, $0) }) {
                try await consumer.watermarks($0)
            }
            var latest: [String: (partition: Int32, value: Data)] = [:]
            if !catchUp.isComplete {
                try consumer.assign(catchUp.remaining.keys.map { TopicPartitionOffset($0, .beginning) })
                let outcome = try await catchUp.read(from: consumer, until: ContinuousClock.now + timeout) { message in
                    if let key = message.keyString {
                        latest[key] = message.value.map { (message.partition, $0) }
                    }
                }
                if outcome != .complete { throw PipelineError.changelogIncomplete(topic: topic, remaining: catchUp.pending) }
            }
            await consumer.close()
            return latest
        } catch {
            await consumer.close()
            throw error
        }
    }
}
