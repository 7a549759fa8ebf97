import HeraldKafka
import HeraldTestSupport
import Testing

/// `ConsumerConfiguration.prefetchMessages`: how much librdkafka fetches ahead of the reader.
@Suite("Consumer prefetch")
struct ConsumerPrefetchTests {
    @Test("the consumer prefetches up to 500 000 messages, not librdkafka's 100 000, unless told otherwise")
    func prefetchIsRenderedAndCanBeOverridden() {
        var settings = ConsumerConfiguration(bootstrapServers: "127.0.0.1:1", groupID: "g")
        #expect(settings.properties["queued.min.messages"] == "500000")
        settings.prefetchMessages = 20_000
        #expect(settings.properties["queued.min.messages"] == "20000")
        settings.client.extraProperties["queued.min.messages"] = "7"
        #expect(settings.properties["queued.min.messages"] == "7", "extra properties win, as for every setting")
    }

    @Test("a consumer with a raised prefetch reads a partition from start to end")
    func consumerReadsWithARaisedPrefetch() async throws {
        let test = try TestCluster()
        let topic = try test.topic(partitions: 2)
        let producer = try test.producer()
        _ = try await producer.send(OutgoingMessage.numbered(topic: topic, 0..<300))
        let consumer = try test.consumer(group: "g-\(topic)") { $0.prefetchMessages = 1_000_000 }
        try consumer.subscribe([topic])
        let (messages, _) = try await consumer.collect(count: 300)
        #expect(Set(messages.map(\.text)).count == 300)
        await consumer.close()
        await producer.close()
    }
}
