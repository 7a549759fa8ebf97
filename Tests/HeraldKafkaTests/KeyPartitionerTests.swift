import Foundation
import HeraldKafka
import HeraldTestSupport
import Testing

@Suite("Key partitioner", .timeLimit(.minutes(5)))
struct KeyPartitionerTests {
    @Test("KeyPartitioner places every key where the producer's partitioner does")
    func agreesWithTheProducer() async throws {
        let test = try TestCluster()
        let topic = try test.topic(partitions: 7)
        let producer = try test.producer()
        let keys = (0..<200).map { "_user-\($0)-é" } + ["a", "iCloud.com.example/_u1/alarm"]
        let reports = try await producer.send(keys.map { OutgoingMessage(topic: topic, key: $0, value: Data()) })
        #expect(reports.count == keys.count)
        for (key, report) in zip(keys, reports) {
            #expect(KeyPartitioner.partition(of: key, partitions: 7) == report.topicPartition.partition, "key \(key)")
        }
        #expect(Set(keys.map { KeyPartitioner.partition(of: $0, partitions: 7) }).count == 7)
        await producer.close()
    }
}
