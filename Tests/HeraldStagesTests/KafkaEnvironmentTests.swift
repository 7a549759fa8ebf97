import HeraldKafka
import HeraldStages
import Logging
import Testing

/// The consumer settings the environment picks for a Kafka cluster and for the mock one.
@Suite("Kafka environment", .timeLimit(.minutes(5)))
struct KafkaEnvironmentTests {
    @Test("a Kafka cluster keeps the 500 ms fetch wait; the embedded broker's consumers wait 10 ms")
    func fetchWaitPerCluster() throws {
        let logger = Logger(label: "test")
        let external = KafkaEnvironment(brokers: "127.0.0.1:1", logger: logger)
            .consumerConfiguration(groupID: "g", clientID: "c")
        #expect(external.properties["fetch.wait.max.ms"] == "500")
        #expect(external.sessionTimeout == KafkaEnvironment.clusterSessionTimeout)

        let embedded = try KafkaEnvironment(embeddedBrokers: 1, logger: logger)
            .consumerConfiguration(groupID: "g", clientID: "c")
        #expect(embedded.properties["fetch.wait.max.ms"] == "10")
        #expect(embedded.sessionTimeout == KafkaEnvironment.mockSessionTimeout)
    }
}
