import Foundation
import HeraldKafka
import HeraldTestSupport
import Testing

@Suite("Producer and consumer round trip", .timeLimit(.minutes(5)))
struct ProducerConsumerTests {
    @Test("a round trip keeps keys, values, headers and per-partition order")
    func roundTripKeepsKeyHeadersAndOrder() async throws {
        let test = try TestCluster()
        let topic = try test.topic(partitions: 3)
        let producer = try test.producer()
        var outgoing = OutgoingMessage.numbered(topic: topic, 0..<300)
        outgoing[7].headers = [MessageHeader("trace", "abc"), MessageHeader("trace", "def"), MessageHeader("empty", Data()),
                               MessageHeader("null", nil)]
        outgoing[8].value = nil
        outgoing[9].value = Data()
        let reports = try await producer.send(outgoing)
        #expect(reports.count == 300)
        #expect(reports.allSatisfy { $0.offset >= 0 && $0.topicPartition.topic == topic })

        let consumer = try test.consumer(group: "g-\(topic)")
        try consumer.subscribe([topic])
        let (messages, _) = try await consumer.collect(count: 300)
        #expect(messages.count == 300)

        // Same key → same partition, and within a partition the send order is kept.
        var partitionOfKey: [String: Int32] = [:]
        var lastIndexPerPartition: [Int32: Int] = [:]
        for message in messages {
            let key = try #require(message.keyString)
            #expect(partitionOfKey[key, default: message.partition] == message.partition)
            partitionOfKey[key] = message.partition
            let index = Int(message.text.dropFirst()) ?? Int(message.offset)
            if message.value != nil, !(message.value!.isEmpty) {
                #expect(index > lastIndexPerPartition[message.partition, default: -1])
                lastIndexPerPartition[message.partition] = index
            }
        }
        let byOffset = Dictionary(uniqueKeysWithValues: messages.map { ("\($0.partition)/\($0.offset)", $0) })
        let seventh = try #require(byOffset["\(reports[7].topicPartition.partition)/\(reports[7].offset)"])
        #expect(seventh.headers == outgoing[7].headers)
        #expect(seventh.text == "v7")
        let tombstone = try #require(byOffset["\(reports[8].topicPartition.partition)/\(reports[8].offset)"])
        #expect(tombstone.value == nil)
        let empty = try #require(byOffset["\(reports[9].topicPartition.partition)/\(reports[9].offset)"])
        #expect(empty.value == Data())
        await consumer.close()
        await producer.close()
    }

    @Test("an explicit partition is honoured")
    func explicitPartition() async throws {
        let test = try TestCluster()
        let topic = try test.topic(partitions: 4)
        let producer = try test.producer()
        let reports = try await producer.send((0..<20).map { OutgoingMessage(topic: topic, partition: 2, key: "k\($0)", value: Data()) })
        #expect(reports.allSatisfy { $0.topicPartition.partition == 2 })
        #expect(reports.map(\.offset) == Array(0..<20))
        await producer.close()
    }

    @Test("sending to a partition that does not exist fails with a clear error")
    func unknownPartitionFails() async throws {
        let test = try TestCluster()
        let topic = try test.topic(partitions: 1)
        let producer = try test.producer()
        await #expect(throws: KafkaError.self) {
            try await producer.send(OutgoingMessage(topic: topic, partition: 9, key: "k", value: Data("x".utf8)))
        }
        await producer.close()
    }

    @Test("manual assignment, seek and watermarks")
    func assignSeekAndWatermarks() async throws {
        let test = try TestCluster()
        let topic = try test.topic(partitions: 1)
        let producer = try test.producer()
        _ = try await producer.send(OutgoingMessage.numbered(topic: topic, 0..<50))
        let consumer = try test.consumer(group: "g-\(topic)")
        let partition = TopicPartition(topic, 0)
        let marks = try await consumer.watermarks(partition)
        #expect(marks == Watermarks(low: 0, high: 50))
        try consumer.assign([TopicPartitionOffset(partition, KafkaOffset(40))])
        let (messages, _) = try await consumer.collect(count: 10, store: false)
        #expect(messages.map(\.offset) == Array(40..<50))
        try await consumer.seek([TopicPartitionOffset(partition, KafkaOffset(5))])
        let (again, _) = try await consumer.collect(count: 3, store: false)
        #expect(again.first?.offset == 5)
        await consumer.close()
        await producer.close()
    }

    @Test("with partition ends reported, reaching a partition's end is an event after its last message")
    func partitionEndsAreReported() async throws {
        let test = try TestCluster()
        let topic = try test.topic(partitions: 2)
        let producer = try test.producer()
        _ = try await producer.send(OutgoingMessage.numbered(topic: topic, 0..<5).map {
            var message = $0
            message.partition = 0
            return message
        })
        let consumer = try test.consumer(group: "g-\(topic)") { $0.reportsPartitionEnds = true }
        try consumer.assign([TopicPartitionOffset(topic, 0, .beginning), TopicPartitionOffset(topic, 1, .beginning)])
        var events: [ConsumerEvent] = []
        func ends() -> [TopicPartition: Int64] {
            var found: [TopicPartition: Int64] = [:]
            for case .partitionEnd(let partition, let offset) in events { found[partition] = offset }
            return found
        }
        let deadline = ContinuousClock.now + .seconds(60)
        while ends().count < 2, ContinuousClock.now < deadline { events += await consumer.poll() }
        #expect(ends() == [TopicPartition(topic, 0): 5, TopicPartition(topic, 1): 0])
        // Partition 0's end comes after its five messages.
        let endIndex = events.firstIndex { if case .partitionEnd(let partition, _) = $0 { partition.partition == 0 } else { false } }
        let delivered = events.prefix(endIndex ?? 0).reduce(0) { count, event in
            if case .messages(let batch) = event { count + batch.filter { $0.partition == 0 }.count } else { count }
        }
        #expect(delivered == 5)
        await consumer.close()
        await producer.close()
    }

    @Test("an offset beyond the log is reported as out of range, never swallowed")
    func offsetOutOfRangeIsReported() async throws {
        let test = try TestCluster()
        let topic = try test.topic(partitions: 1)
        let producer = try test.producer()
        _ = try await producer.send(OutgoingMessage.numbered(topic: topic, 0..<5))
        let consumer = try test.consumer(group: "g-\(topic)")
        try consumer.assign([TopicPartitionOffset(topic, 0, KafkaOffset(1000))])
        var (messages, events) = try await consumer.collect(count: 5, store: false)
        func reported() -> Bool {
            events.contains { if case .offsetOutOfRange(let partition, let offset, _) = $0 { partition == TopicPartition(topic, 0) && offset == 1000 } else { false } }
        }
        // The report may follow the first messages by a poll or two.
        for _ in 0..<50 where !reported() { events += await consumer.poll() }
        #expect(reported())
        // With the default reset policy the consumer continues from the earliest offset.
        #expect(messages.map(\.offset) == Array(0..<5))
        await consumer.close()
        await producer.close()
    }
}

@Suite("Partitioning")
struct PartitioningTests {
    /// Java's `Utils.toPositive(Utils.murmur2(key)) % partitions`, for keys whose
    /// partitions Java clients compute (values from Kafka's own partitioner tests).
    @Test("keys land where Kafka's Java default partitioner puts them")
    func murmur2LikeJava() async throws {
        let test = try TestCluster()
        let topic = try test.topic(partitions: 100)
        let producer = try test.producer()
        let keys = ["a", "b", "c", "herald", "container/private/_u1/Notes"]
        let reports = try await producer.send(keys.map { OutgoingMessage(topic: topic, key: $0, value: Data("x".utf8)) })
        #expect(reports.map(\.topicPartition.partition) == keys.map { Int32(javaPartition($0, 100)) })
        await producer.close()
    }

    /// Kafka's murmur2 (seed 0x9747b28c), as in org.apache.kafka.common.utils.Utils.
    private func javaPartition(_ key: String, _ partitions: Int) -> Int {
        let data = Array(key.utf8)
        let m: UInt32 = 0x5bd1_e995
        var h: UInt32 = 0x9747_b28c ^ UInt32(data.count)
        var index = 0
        while index + 4 <= data.count {
            var k = UInt32(data[index]) | UInt32(data[index + 1]) << 8 | UInt32(data[index + 2]) << 16 | UInt32(data[index + 3]) << 24
            k = k &* m
            k ^= k >> 24
            k = k &* m
            h = h &* m
            h ^= k
            index += 4
        }
        let rest = data.count - index
        if rest >= 3 { h ^= UInt32(data[index + 2]) << 16 }
        if rest >= 2 { h ^= UInt32(data[index + 1]) << 8 }
        if rest >= 1 {
            h ^= UInt32(data[index])
            h = h &* m
        }
        h ^= h >> 13
        h = h &* m
        h ^= h >> 15
        return Int(h & 0x7fff_ffff) % partitions
    }
}
