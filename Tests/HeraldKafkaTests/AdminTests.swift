import Foundation
@testable import HeraldKafka
import HeraldTestSupport
import Logging
import Testing

@Suite("Admin and embedded cluster", .timeLimit(.minutes(5)))
struct AdminTests {
    @Test("topics lists partitions; ensureTopics keeps existing topics as they are")
    func ensureExistingTopics() async throws {
        let test = try TestCluster()
        let topic = try test.topic("admin", partitions: 3)
        let admin = try KafkaAdmin(configuration: .init(bootstrapServers: test.cluster.bootstrapServers), logger: test.logger)
        let topics = try await admin.topics()
        #expect(topics.first { $0.name == topic }?.partitions == [0, 1, 2])
        let ensured = try await admin.ensureTopics([TopicSpecification(name: topic, partitions: 3)])
        #expect(ensured == [EnsuredTopic(name: topic, partitions: 3, created: false)])
        await admin.close()
    }

    @Test("creating a topic on a broker that cannot is a clear error")
    func createOnEmbeddedBrokerExplains() async throws {
        let test = try TestCluster()
        let admin = try KafkaAdmin(configuration: .init(bootstrapServers: test.cluster.bootstrapServers), logger: test.logger)
        await #expect {
            _ = try await admin.ensureTopics([TopicSpecification(name: "missing-\(UUID().uuidString)", partitions: 2)])
        } throws: { error in
            guard let error = error as? KafkaError else { return false }
            return error.reason.contains("cannot create topics") || error.operation.contains("create")
        }
        await admin.close()
    }

    @Test("an unreachable cluster is reported with the address tried")
    func unreachableCluster() async throws {
        var configuration = KafkaClientConfiguration(bootstrapServers: "127.0.0.1:1")
        configuration.requestTimeout = .seconds(1)
        var quiet = Logger(label: "test")
        quiet.logLevel = .critical
        let admin = try KafkaAdmin(configuration: configuration, logger: quiet)
        await #expect {
            _ = try await admin.topics()
        } throws: { error in
            (error as? KafkaError)?.reason.contains("127.0.0.1:1") == true
        }
        await admin.close()
    }

    @Test("an invalid property is refused with its name")
    func invalidProperty() {
        var configuration = ProducerConfiguration(bootstrapServers: "127.0.0.1:1")
        configuration.client.extraProperties["no.such.property"] = "1"
        #expect {
            _ = try KafkaProducer(configuration: configuration, logger: Logger(label: "test"))
        } throws: { error in
            (error as? KafkaError)?.reason.contains("no.such.property") == true
        }
    }
}
