import Foundation
import HeraldKafka
import Logging

/// Reads a topic from the beginning (every partition, no consumer group), for the demo and tools.
struct TopicReader {
    let client: KafkaClientConfiguration
    let logger: Logger

    /// Messages of `topic` until `count` arrived or `timeout` passed, in arrival order.
    func read(_ topic: String, partitions: Int32, count: Int, timeout: Duration) async throws -> [ConsumedMessage] {
        var settings = ConsumerConfiguration()
        settings.client = client
        settings.groupID = "herald-reader-\(UUID().uuidString)"
        let consumer = try KafkaConsumer(configuration: settings, logger: logger)
        try consumer.assign((0..<partitions).map { TopicPartitionOffset(topic, $0, .beginning) })
        var messages: [ConsumedMessage] = []
        let deadline = ContinuousClock.now + timeout
        while messages.count < count, ContinuousClock.now < deadline {
            for case .messages(let batch) in await consumer.poll() { messages += batch }
        }
        await consumer.close()
        return messages
    }
}
