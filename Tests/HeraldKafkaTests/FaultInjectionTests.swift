import Foundation
import HeraldKafka
import HeraldTestSupport
import Testing

@Suite("Fault injection on the embedded cluster", .timeLimit(.minutes(5)))
struct FaultInjectionTests {
    @Test("with the broker down, sends wait; once it is back everything is delivered exactly once")
    func brokerDownThenUp() async throws {
        let test = try TestCluster()
        let topic = try test.topic(partitions: 2)
        let producer = try test.producer()
        _ = try await producer.send(OutgoingMessage(topic: topic, key: "warm-up", value: Data("v-1".utf8)))

        try test.cluster.setBrokerDown(1)
        let pending = Task { try await producer.send(OutgoingMessage.numbered(topic: topic, 0..<200)) }
        try await Task.sleep(for: .seconds(2))
        try test.cluster.setBrokerUp(1)
        let reports = try await pending.value
        #expect(reports.count == 200)

        let consumer = try test.consumer(group: "g-\(topic)")
        try consumer.subscribe([topic])
        let (messages, _) = try await consumer.collect(count: 201)
        let values = messages.map(\.text)
        #expect(values.count == 201)
        #expect(Set(values).count == 201, "idempotence: no duplicates after retries")
        await consumer.close()
        await producer.close()
    }

    @Test("retriable produce errors are retried without duplicates")
    func retriableProduceErrors() async throws {
        let test = try TestCluster()
        let topic = try test.topic(partitions: 1)
        let producer = try test.producer()
        test.cluster.pushRequestErrors(.produce, [.notLeaderForPartition, .requestTimedOut, .leaderNotAvailable])
        let reports = try await producer.send(OutgoingMessage.numbered(topic: topic, 0..<50))
        #expect(reports.map(\.offset) == Array(0..<50))
        let consumer = try test.consumer(group: "g-\(topic)")
        try consumer.subscribe([topic])
        let (messages, _) = try await consumer.collect(count: 50)
        #expect(messages.map(\.text) == (0..<50).map { "v\($0)" })
        await consumer.close()
        await producer.close()
    }

    @Test("a message that cannot be delivered in time fails its send with a clear error")
    func deliveryTimeout() async throws {
        let test = try TestCluster()
        let topic = try test.topic(partitions: 1)
        let producer = try test.producer { $0.deliveryTimeout = .seconds(1) }
        _ = try await producer.send(OutgoingMessage(topic: topic, key: "k", value: Data("first".utf8)))
        try test.cluster.setBrokerDown(1)
        await #expect {
            try await producer.send(OutgoingMessage(topic: topic, key: "k", value: Data("lost".utf8)))
        } throws: { error in
            (error as? KafkaError)?.code == .messageTimedOut
        }
        try test.cluster.setBrokerUp(1)
        await producer.close()
    }
}
