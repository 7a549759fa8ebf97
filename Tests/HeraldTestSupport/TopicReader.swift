import Foundation
import HeraldKafka
import Logging

/// Reads topics of a test cluster as they stand: from the beginning, up to their end
/// offsets, and how far a consumer group has committed. What was acknowledged is all
/// there, so a test checks what is absent, or that a stage consumed everything, by offsets
/// rather than by waiting.
public struct TopicReader: Sendable {
    private let client: KafkaClientConfiguration
    private let logger: Logger
    private let makeConsumer: @Sendable (_ group: String) throws -> KafkaConsumer

    /// - Parameter consumer: a consumer in a group, for reading.
    public init(client: KafkaClientConfiguration, logger: Logger, consumer: @escaping @Sendable (_ group: String) throws -> KafkaConsumer) {
        self.client = client
        self.logger = logger
        makeConsumer = consumer
    }

    /// Up to `count` messages of a topic from the beginning (all `partitions`), read for at most `timeout`.
    public func read(_ topic: String, partitions: Int32, count: Int, timeout: Duration = .seconds(20)) async throws -> [ConsumedMessage] {
        let consumer = try makeConsumer("reader-\(UUID().uuidString)")
        try consumer.assign((0..<partitions).map { TopicPartitionOffset(topic, $0, .beginning) })
        let messages: [ConsumedMessage]
        do {
            messages = try await consumer.collect(count: count, timeout: timeout, store: false).messages
        } catch {
            await consumer.close()
            throw error
        }
        await consumer.close()
        return messages
    }

    /// Every message of a topic up to its end offsets now.
    public func readToEnd(_ topic: String, partitions: Int32) async throws -> [ConsumedMessage] {
        let stored = try await watermarks([topic], partitions: partitions).values.reduce(0) { $0 + $1.high - $1.low }
        return stored == 0 ? [] : try await read(topic, partitions: partitions, count: Int(stored))
    }

    /// The end offset of each partition of `topics`.
    public func endOffsets(_ topics: [String], partitions: Int32) async throws -> [TopicPartition: Int64] {
        try await watermarks(topics, partitions: partitions).mapValues(\.high)
    }

    /// The offsets `group` committed on each partition of `topics` (absent when none).
    public func committedOffsets(group: String, topics: [String], partitions: Int32) async throws -> [TopicPartition: Int64] {
        try await withAdmin { admin in
            try await admin.committedOffsets(group: group, partitions: Self.partitions(topics, partitions))
        }
    }

    /// Waits until `positions` (a group's committed offsets, a store's saved ones) reach the
    /// end offsets every partition of `topics` has now (or `timeout` passes).
    /// - Returns: whether they did.
    @discardableResult
    public func waitUntilConsumed(
        _ topics: [String], partitions: Int32, timeout: Duration = .seconds(30),
        by positions: () async throws -> [TopicPartition: Int64]
    ) async throws -> Bool {
        let ends = try await endOffsets(topics, partitions: partitions)
        return try await Wait.until(timeout: timeout, every: .milliseconds(100)) {
            let reached = try await positions()
            return ends.allSatisfy { partition, end in end == 0 || reached[partition, default: 0] >= end }
        }
    }

    /// Waits until `group` has committed the end offsets every partition of `topics` has now.
    @discardableResult
    public func waitUntilCommitted(
        group: String, _ topics: [String], partitions: Int32, timeout: Duration = .seconds(30)
    ) async throws -> Bool {
        try await waitUntilConsumed(topics, partitions: partitions, timeout: timeout) {
            try await committedOffsets(group: group, topics: topics, partitions: partitions)
        }
    }

    private func watermarks(_ topics: [String], partitions: Int32) async throws -> [TopicPartition: Watermarks] {
        try await withAdmin { admin in
            var marks: [TopicPartition: Watermarks] = [:]
            for partition in Self.partitions(topics, partitions) { marks[partition] = try await admin.watermarks(partition) }
            return marks
        }
    }

    private func withAdmin<T>(_ body: (KafkaAdmin) async throws -> T) async throws -> T {
        let admin = try KafkaAdmin(configuration: client, logger: logger)
        do {
            let result = try await body(admin)
            await admin.close()
            return result
        } catch {
            await admin.close()
            throw error
        }
    }

    private static func partitions(_ topics: [String], _ count: Int32) -> [TopicPartition] {
        topics.flatMap { topic in (0..<count).map { TopicPartition(topic, $0) } }
    }
}
