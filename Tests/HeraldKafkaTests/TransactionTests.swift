import Foundation
import HeraldKafka
import HeraldTestSupport
import Testing

@Suite("Transactions", .timeLimit(.minutes(5)))
struct TransactionTests {
    @Test("a consume→produce hop commits its outputs and input offsets together")
    func commitPath() async throws {
        let test = try TestCluster()
        let input = try test.topic("in", partitions: 1)
        let output = try test.topic("out", partitions: 1)
        let group = "g-\(input)"
        let plain = try test.producer()
        _ = try await plain.send(OutgoingMessage.numbered(topic: input, 0..<10))

        let producer = try test.producer { $0.transactionalID = "tx-\(input)" }
        try await producer.initTransactions()
        let consumer = try test.consumer(group: group)
        try consumer.subscribe([input])
        let (batch, _) = try await consumer.collect(count: 10, store: false)
        #expect(batch.count == 10)

        try producer.beginTransaction()
        let outputs = batch.map { OutgoingMessage(topic: output, key: $0.key, value: Data("out-\($0.text)".utf8)) }
        _ = try await producer.send(outputs)
        try await producer.sendOffsetsToTransaction(batch.nextOffsets, group: try consumer.groupMetadata())
        try await producer.commitTransaction()

        // The embedded broker (librdkafka 2.0.2's mock) accepts TxnOffsetCommit but does not
        // store the offsets, so they cannot be read back here; on real Kafka they commit
        // atomically with the outputs.
        let reader = try test.consumer(group: "reader-\(output)")
        try reader.subscribe([output])
        let (written, _) = try await reader.collect(count: 10)
        #expect(written.map(\.text) == (0..<10).map { "out-v\($0)" })

        // Abort leaves the producer usable for the next transaction.
        try producer.beginTransaction()
        _ = try await producer.send(OutgoingMessage(topic: output, key: "k", value: Data("aborted".utf8)))
        try await producer.abortTransaction()
        try producer.beginTransaction()
        _ = try await producer.send(OutgoingMessage(topic: output, key: "k", value: Data("after-abort".utf8)))
        try await producer.commitTransaction()

        await reader.close()
        await consumer.close()
        await producer.close()
        await plain.close()
    }

    @Test("transaction calls are refused with a clear error where they cannot apply")
    func misuseIsReported() async throws {
        let test = try TestCluster()
        let plain = try test.producer()
        #expect(throws: KafkaError.self) { try plain.beginTransaction() }

        let producer = try test.producer { $0.transactionalID = "tx-misuse-\(UUID().uuidString)" }
        // Not initialized yet: librdkafka refuses with a state error (not fatal).
        do {
            try producer.beginTransaction()
            Issue.record("begin before init should fail")
        } catch {
            #expect(!error.isFatal)
        }
        try await producer.initTransactions()
        try producer.beginTransaction()
        #expect(throws: KafkaError.self) { try producer.beginTransaction() }
        try await producer.abortTransaction()
        await producer.close()
        await plain.close()
    }
}
