import Foundation
import HeraldKafka
import HeraldTestSupport
import Testing

/// `KafkaProducer.enqueue`: batches queued back to back, their deliveries awaited later.
@Suite("Pending deliveries", .timeLimit(.minutes(5)))
struct PendingDeliveryTests {
    @Test("batches enqueued before earlier ones are delivered keep their order per partition")
    func pipelinedBatchesKeepOrder() async throws {
        let test = try TestCluster()
        let topic = try test.topic(partitions: 2)
        let producer = try test.producer()
        var pending: [PendingDelivery] = []
        for batch in 0..<8 {
            let messages = (batch * 50..<(batch + 1) * 50).map {
                OutgoingMessage(topic: topic, partition: Int32($0 % 2), key: "k", value: Data("v\($0)".utf8))
            }
            pending.append(try await producer.enqueue(messages))
        }
        var offsets: [Int32: [Int64]] = [:]
        for delivery in pending {
            for report in try await delivery.reports() { offsets[report.topicPartition.partition, default: []].append(report.offset) }
        }
        #expect(offsets[0] == Array(0..<200))
        #expect(offsets[1] == Array(0..<200))
        let consumer = try test.consumer(group: "g-\(topic)")
        try consumer.assign([TopicPartitionOffset(topic, 0, .beginning)])
        let (messages, _) = try await consumer.collect(count: 200, store: false)
        #expect(messages.map(\.text) == stride(from: 0, to: 400, by: 2).map { "v\($0)" })
        await consumer.close()
        await producer.close()
    }

    @Test("enqueue returns while the broker is down; the delivery completes once it is back")
    func enqueueDoesNotWaitForDelivery() async throws {
        let test = try TestCluster()
        let topic = try test.topic(partitions: 1)
        let producer = try test.producer()
        _ = try await producer.send(OutgoingMessage(topic: topic, key: "warm-up", value: Data("w".utf8)))
        try test.cluster.setBrokerDown(1)
        let pending = try await producer.enqueue(OutgoingMessage.numbered(topic: topic, 0..<20))
        #expect(pending.count == 20)
        #expect(!pending.isComplete, "no broker: nothing can have been acknowledged yet")
        try test.cluster.setBrokerUp(1)
        let reports = try await pending.reports()
        #expect(reports.map(\.offset) == Array(1...20))
        #expect(pending.isComplete)
        #expect(try await pending.reports() == reports, "awaiting again gives the same reports")
        await producer.close()
    }

    @Test("a queue of 3 messages carries 1000 without dropping or reordering one")
    func fullQueueWaitsAndRetries() async throws {
        let test = try TestCluster()
        let topic = try test.topic(partitions: 3)
        let producer = try test.producer { $0.queueCapacity = 3 }
        #expect(producer.configuration.properties["queue.buffering.max.messages"] == "3")
        let results = try await producer.sendAll(OutgoingMessage.numbered(topic: topic, 0..<1000, keys: 7))
        #expect(results.count == 1000)
        #expect(results.allSatisfy { if case .success = $0 { true } else { false } })
        let consumer = try test.consumer(group: "g-\(topic)")
        try consumer.subscribe([topic])
        let (messages, _) = try await consumer.collect(count: 1000)
        #expect(Set(messages.map(\.text)).count == 1000)
        var lastPerKey: [String: Int] = [:]
        for message in messages {
            let index = try #require(Int(message.text.dropFirst()))
            let key = try #require(message.keyString)
            #expect(index > lastPerKey[key, default: -1], "per key (so per partition), the order sent")
            lastPerKey[key] = index
        }
        await consumer.close()
        await producer.close()
    }

    @Test("a failed delivery reaches its batch's results; a batch delivered before it is untouched")
    func deliveryFailureReachesTheBatch() async throws {
        let test = try TestCluster()
        let topic = try test.topic(partitions: 1)
        let producer = try test.producer { $0.deliveryTimeout = .seconds(1) }
        let delivered = try await producer.enqueue(OutgoingMessage.numbered(topic: topic, 0..<5))
        #expect(try await delivered.reports().count == 5)
        try test.cluster.setBrokerDown(1)
        let lost = try await producer.enqueue(OutgoingMessage.numbered(topic: topic, 5..<15))
        let results = await lost.results()
        #expect(results.count == 10)
        for result in results {
            guard case .failure(let error) = result else {
                Issue.record("delivered with the broker down: \(result)")
                continue
            }
            #expect(error.code == .messageTimedOut)
        }
        await #expect {
            try await lost.reports()
        } throws: { error in
            (error as? KafkaError)?.reason.hasPrefix("10 of 10 messages not delivered") == true
        }
        #expect(try await delivered.reports().map(\.offset) == Array(0..<5))
        try test.cluster.setBrokerUp(1)
        await producer.close()
    }

    @Test("closing the producer fails what it could not deliver, and later enqueues")
    func closeFailsPendingDeliveries() async throws {
        let test = try TestCluster()
        let topic = try test.topic(partitions: 1)
        let producer = try test.producer()
        _ = try await producer.send(OutgoingMessage(topic: topic, key: "warm-up", value: Data("w".utf8)))
        try test.cluster.setBrokerDown(1)
        let pending = try await producer.enqueue(OutgoingMessage.numbered(topic: topic, 0..<10))
        await producer.close(timeout: .milliseconds(200))
        let results = await pending.results()
        #expect(results.count == 10)
        #expect(results.allSatisfy { if case .failure(let error) = $0 { error.code == .closed } else { false } })
        await #expect(throws: KafkaError.self) { _ = try await producer.enqueue(OutgoingMessage.numbered(topic: topic, 0..<1)) }
        try test.cluster.setBrokerUp(1)
    }
}
