import Foundation
import HeraldKafka
import HeraldTestSupport
import Testing

@Suite("Per-message produce results", .timeLimit(.minutes(5)))
struct PerMessageResultTests {
    @Test("sendAll: a message over message.max.bytes fails alone, as refused for itself; send throws a summary")
    func oversizeFailsAlone() async throws {
        let test = try TestCluster()
        let topic = try test.topic(partitions: 2)
        let producer = try test.producer { $0.maxMessageBytes = 2_000 }
        #expect(producer.maxMessageBytes == 2_000)
        var messages = OutgoingMessage.numbered(topic: topic, 0..<10)
        let big = OutgoingMessage(topic: topic, key: "big", value: Data(repeating: 1, count: 5_000))
        #expect(big.wireSize > 5_000)
        messages.insert(big, at: 4)
        let results = try await producer.sendAll(messages)
        #expect(results.count == 11)
        for (index, result) in results.enumerated() {
            switch result {
            case .success(let report):
                #expect(index != 4)
                #expect(report.offset >= 0)
            case .failure(let error):
                #expect(index == 4)
                #expect(error.code == .messageSizeTooLarge && error.rejectsMessage && !error.isFatal)
            }
        }
        await #expect {
            try await producer.send([big])
        } throws: { error in
            (error as? KafkaError)?.reason.hasPrefix("1 of 1 messages not delivered") == true
        }
        await producer.close()
    }

    @Test("extraProperties' message.max.bytes is the limit in effect")
    func extraPropertyWins() {
        var settings = ProducerConfiguration()
        settings.client.extraProperties["message.max.bytes"] = "3000"
        #expect(settings.effectiveMaxMessageBytes == 3_000)
        #expect(settings.properties["message.max.bytes"] == "3000")
    }
}
