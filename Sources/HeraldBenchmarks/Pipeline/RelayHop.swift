import Foundation
import HeraldKafka
import HeraldReader
import HeraldStages
import Logging

/// One hop of the pipeline benchmark's baselines: consumes a topic from the beginning of
/// every partition and, per batch, either produces each message to the next topic
/// (acknowledged) or stores it as a notification row, then stores the consumed offsets —
/// the I/O of a Herald stage without its work.
struct RelayHop: Sendable {
    /// Where relayed messages go.
    enum Output: Sendable {
        /// To `topic`: the consumed messages as they are, or (`replacements` not empty) the
        /// `n`-th message relayed replaced by `replacements[n % count]`.
        case topic(String, replacements: [CapturedMessage])
        /// As rows of `store`, with the consumed offsets, as the reader writes them.
        case store(NotificationStore)
    }

    let name: String
    let input: String
    let output: Output
    let partitions: Int32
    let environment: KafkaEnvironment
    let producer: KafkaProducer
    let logger: Logger

    /// Relays `count` messages, giving up after `timeout`.
    /// - Parameter onPolling: called once, when the first poll returned (the hop is consuming).
    /// - Returns: when the first message was consumed.
    /// - Throws: `BenchmarkError` when fewer arrive in time, or what Kafka or the store throws.
    func run(
        count: Int, timeout: Duration = .seconds(600), onPolling: @Sendable () -> Void = {}
    ) async throws -> ContinuousClock.Instant {
        let consumer = try KafkaConsumer(
            configuration: environment.consumerConfiguration(groupID: name, clientID: name), logger: logger)
        try consumer.assign((0..<partitions).map { TopicPartitionOffset(input, $0, .beginning) })
        var relayed = 0
        var first: ContinuousClock.Instant?
        var polled = false
        let deadline = ContinuousClock.now + timeout
        while relayed < count {
            guard ContinuousClock.now < deadline else {
                await consumer.close()
                throw BenchmarkError("\(name): only \(relayed) of \(count) messages arrived from \(input)")
            }
            let events = await consumer.poll()
            if !polled {
                polled = true
                onPolling()
            }
            for case .messages(let batch) in events {
                if first == nil { first = .now }
                try await deliver(batch, numberedFrom: relayed)
                _ = try consumer.store(batch)
                relayed += batch.count
            }
        }
        await consumer.close()
        return first ?? .now
    }

    private func deliver(_ batch: [ConsumedMessage], numberedFrom start: Int) async throws {
        switch output {
        case .topic(let topic, let replacements):
            _ = try await producer.send(batch.enumerated().map { number, message in
                guard !replacements.isEmpty else { return OutgoingMessage(topic: topic, key: message.key, value: message.value) }
                let replacement = replacements[(start + number) % replacements.count]
                return OutgoingMessage(topic: topic, key: replacement.key, value: replacement.value)
            })
        case .store(let store):
            var next: [TopicPartition: Int64] = [:]
            for message in batch { next[message.topicPartition] = max(next[message.topicPartition] ?? 0, message.offset + 1) }
            _ = try await store.apply(StoreBatch(
                notifications: try batch.map { try EncodedNotification(json: $0.value ?? Data()) },
                offsets: next.map { ConsumedOffset(topic: $0.key.topic, partition: $0.key.partition, nextOffset: $0.value) }))
        }
    }
}

/// A message read back from one of Herald's topics, to relay at Herald's sizes.
struct CapturedMessage: Sendable {
    var key: Data?
    var value: Data
}
