import Foundation
import HeraldKafka
import HeraldTestSupport
import Synchronization
import Testing

/// What every group member processed, to check that nothing is lost or done twice.
private final class Ledger: Sendable {
    private let state = Mutex<(processed: [String: [String]], positions: [String: TopicPartitionOffset], assignments: [String: Set<TopicPartition>])>(([:], [:], [:]))

    func record(_ member: String, _ batch: [ConsumedMessage]) {
        state.withLock { state in
            for message in batch {
                state.processed[message.text, default: []].append(member)
                state.positions[message.text] = TopicPartitionOffset(message.topicPartition, KafkaOffset(message.offset))
            }
        }
    }

    /// Where a processed value was read from.
    func position(of value: String) -> TopicPartitionOffset? { state.withLock { $0.positions[value] } }

    func assign(_ member: String, _ partitions: [TopicPartition], add: Bool) {
        state.withLock { state in
            if add { state.assignments[member, default: []].formUnion(partitions) }
            else { state.assignments[member, default: []].subtract(partitions) }
        }
    }

    var processedCount: Int { state.withLock { $0.processed.count } }
    /// How often each value was processed so far.
    var counts: [String: Int] { state.withLock { $0.processed.mapValues(\.count) } }
    var duplicates: [String: [String]] { state.withLock { $0.processed.filter { $0.value.count > 1 } } }
    var assignments: [String: Set<TopicPartition>] { state.withLock { $0.assignments } }
}

@Suite("Consumer groups", .timeLimit(.minutes(5)))
struct ConsumerGroupTests {
    /// Runs one group member until cancelled: process a batch, then store its offsets.
    private func member(_ name: String, _ consumer: KafkaConsumer, _ ledger: Ledger) async throws {
        for await event in consumer.events {
            switch event {
            case .messages(let batch):
                ledger.record(name, batch)
                try consumer.store(batch)
            case .assigned(let partitions): ledger.assign(name, partitions, add: true)
            case .revoked(let partitions), .lost(let partitions): ledger.assign(name, partitions, add: false)
            default: break
            }
        }
    }

    /// On real Kafka, offsets stored before a revocation are committed in the revoke
    /// callback, so nothing is redone. The embedded broker refuses commits while a rebalance
    /// is in progress, so there uncommitted work may be redone: the test checks that nothing
    /// is lost and that no work whose offset was committed is ever processed again.
    @Test("two members split the partitions; a third joining rebalances with nothing lost and no committed work redone")
    func membersSplitAndRebalance() async throws {
        let test = try TestCluster()
        let topic = try test.topic(partitions: 6)
        let group = "g-\(topic)"
        let producer = try test.producer()
        let ledger = Ledger()
        let consumers = try (0..<3).map { _ in try test.consumer(group: group) }
        try consumers[0].subscribe([topic])
        try consumers[1].subscribe([topic])

        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await member("a", consumers[0], ledger) }
            tasks.addTask { try await member("b", consumers[1], ledger) }
            _ = try await producer.send(OutgoingMessage.numbered(topic: topic, 0..<300, keys: 60))
            try await Wait.until(timeout: .seconds(60)) { ledger.processedCount == 300 }
            #expect(ledger.processedCount == 300)
            // The first member to join may hold all six partitions until the second one's join
            // rebalances the group: wait for the split, not just for six assigned partitions.
            try await Wait.until(timeout: .seconds(60)) {
                let assigned = ledger.assignments
                return assigned.values.map(\.count).reduce(0, +) == 6
                    && !assigned["a", default: []].isEmpty && !assigned["b", default: []].isEmpty
            }
            let two = ledger.assignments
            #expect(two["a", default: []].count >= 1 && two["b", default: []].count >= 1)
            #expect(two["a", default: []].isDisjoint(with: two["b", default: []]))
            #expect(two["a", default: []].union(two["b", default: []]).count == 6)

            // Wait for the background commit of everything processed so far.
            let committedBefore = try await Wait.value(every: .milliseconds(100)) {
                try await test.reader.committedOffsets(group: group, topics: [topic], partitions: 6)
            } until: { $0.values.reduce(0, +) >= 300 }
            #expect(committedBefore.values.reduce(0, +) == 300)
            let countsAtSnapshot = ledger.counts

            // A third member joins while messages keep flowing.
            try consumers[2].subscribe([topic])
            tasks.addTask { try await member("c", consumers[2], ledger) }
            for chunk in stride(from: 300, to: 600, by: 50) {
                _ = try await producer.send(OutgoingMessage.numbered(topic: topic, chunk..<(chunk + 50), keys: 60))
                try await Task.sleep(for: .milliseconds(200))
            }
            try await Wait.until(timeout: .seconds(60)) { ledger.processedCount == 600 && ledger.assignments["c", default: []].count >= 1 }
            // Late duplicates come from partitions whose committed offset lags what was
            // processed; once the group committed the end of every partition, none can come.
            let committedAfter = try await test.reader.waitUntilCommitted(group: group, [topic], partitions: 6, timeout: .seconds(60))
            #expect(committedAfter, "the group commits everything it processed")
            tasks.cancelAll()
            // Work redone after the snapshot must lie at or after the committed offsets.
            for (value, members) in ledger.duplicates where members.count > countsAtSnapshot[value, default: 0] {
                let position = try #require(ledger.position(of: value))
                #expect(
                    position.offset.rawValue >= committedBefore[position.topicPartition, default: 0],
                    "committed work redone: \(value) at \(position)")
            }
        }
        let three = ledger.assignments
        #expect(ledger.processedCount == 600)
        #expect(three["c", default: []].count >= 1)
        let all = three.values.reduce(into: Set<TopicPartition>()) { $0.formUnion($1) }
        #expect(all.count == 6)
        #expect(three.values.map(\.count).reduce(0, +) == 6, "every partition has exactly one owner")
        for consumer in consumers { await consumer.close() }
        await producer.close()
    }

    @Test("a restarted member resumes right after its last stored offset")
    func restartResumesAfterStoredOffset() async throws {
        let test = try TestCluster()
        let topic = try test.topic(partitions: 1)
        let group = "g-\(topic)"
        let producer = try test.producer()
        _ = try await producer.send(OutgoingMessage.numbered(topic: topic, 0..<100))

        let first = try test.consumer(group: group)
        try first.subscribe([topic])
        let (seen, _) = try await first.collect(count: 60, store: false)
        #expect(seen.count >= 60)
        // Only the first 42 were processed.
        try first.storeOffsets([TopicPartitionOffset(topic, 0, KafkaOffset(42))])
        await first.close()

        let second = try test.consumer(group: group)
        try second.subscribe([topic])
        let (resumed, _) = try await second.collect(count: 58, timeout: .seconds(45))
        #expect(resumed.first?.offset == 42)
        #expect(resumed.map(\.offset) == Array(42..<100))
        await second.close()

        // The last member's stored offsets were committed on close.
        let admin = try KafkaAdmin(configuration: .init(bootstrapServers: test.cluster.bootstrapServers), logger: test.logger)
        let committed = try await admin.committedOffsets(group: group, partitions: [TopicPartition(topic, 0)])
        #expect(committed[TopicPartition(topic, 0)] == 100)
        await admin.close()
        await producer.close()
    }

    @Test("pause stops a partition's flow and resume restarts it")
    func pauseAndResume() async throws {
        let test = try TestCluster()
        let topic = try test.topic(partitions: 2)
        let producer = try test.producer()
        let consumer = try test.consumer(group: "g-\(topic)")
        try consumer.assign([TopicPartitionOffset(topic, 0, .beginning), TopicPartitionOffset(topic, 1, .beginning)])
        try consumer.pause([TopicPartition(topic, 1)])
        _ = try await producer.send((0..<20).map { OutgoingMessage(topic: topic, partition: Int32($0 % 2), key: "k", value: Data("v\($0)".utf8)) })
        // Partition 0's ten arrive; then ten more sent to partition 0 after them arrive too,
        // and still nothing of partition 1 came in between (waits on messages, not a clock).
        let (first, _) = try await consumer.collect(count: 10, timeout: .seconds(30))
        _ = try await producer.send((20..<30).map { OutgoingMessage(topic: topic, partition: 0, key: "k", value: Data("v\($0)".utf8)) })
        let (second, _) = try await consumer.collect(count: 10, timeout: .seconds(30))
        let paused = first + second
        #expect(paused.count == 20)
        #expect(paused.allSatisfy { $0.partition == 0 })
        try consumer.resume([TopicPartition(topic, 1)])
        let (resumed, _) = try await consumer.collect(count: 10)
        #expect(resumed.count == 10)
        #expect(resumed.allSatisfy { $0.partition == 1 })
        await consumer.close()
        await producer.close()
    }
}
