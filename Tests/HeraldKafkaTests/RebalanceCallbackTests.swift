import CRdKafka
import Logging
import Testing
@testable import HeraldKafka

@Suite("Rebalance callback")
struct RebalanceCallbackTests {
    /// librdkafka's `rd_kafka_rebalance_protocol` returns NULL "on error"; the callback read
    /// it as a C string and crashed the process (seen once in `make test`). A handle without
    /// a consumer group (here a producer with no broker configured, so nothing connects)
    /// answers NULL every time.
    @Test("a rebalance while librdkafka reports no protocol is handled as eager, without a crash")
    func noProtocol() throws {
        var text = [CChar](repeating: 0, count: 512)
        let handle = try #require(rd_kafka_new(RD_KAFKA_PRODUCER, rd_kafka_conf_new(), &text, text.count))
        defer { rd_kafka_destroy(handle) }
        #expect(rd_kafka_rebalance_protocol(handle) == nil)
        let list = try #require(rd_kafka_topic_partition_list_new(1))
        defer { rd_kafka_topic_partition_list_destroy(list) }
        rd_kafka_topic_partition_list_add(list, "t", 0)

        let poller = ConsumerPoller(logger: Logger(label: "test"))
        poller.rebalance(handle, RD_KAFKA_RESP_ERR__ASSIGN_PARTITIONS, list)
        // Its events, as the next poll would hand them out.
        let events = poller.pending
        let assigned = events.contains { event in
            if case .assigned(let partitions) = event { return partitions == [TopicPartition("t", 0)] }
            return false
        }
        #expect(assigned, "\(events)")
    }
}
