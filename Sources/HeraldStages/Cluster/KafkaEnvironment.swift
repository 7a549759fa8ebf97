import Foundation
import HeraldKafka
import Logging
import Synchronization

/// Where Herald's Kafka is: an external cluster (`--brokers`), or the embedded one.
///
/// The embedded cluster lives in this process and cannot create topics through the admin
/// API, so `ensureTopics` creates them directly; an external cluster gets CreateTopics.
public final class KafkaEnvironment: Sendable {
    public let bootstrapServers: String
    /// Set when Herald runs its own embedded cluster.
    public let embedded: EmbeddedKafkaCluster?
    /// With `embedded`: a name for this cluster unlike any other run's. The embedded
    /// cluster's ID is not promised to differ between runs and its topics start empty, so a
    /// reader store kept from another run must be told apart from one built on this cluster
    /// (as when a test runs two runtimes one after the other on it).
    public let embeddedRunID: String?
    public let client: KafkaClientConfiguration
    private let logger: Logger
    /// The cluster ID `ensureTopics` learned, if it ran.
    private let learnedClusterID = Mutex<String?>(nil)

    /// The consumers' session timeout on a real Kafka cluster: 6 s, the smallest a broker
    /// accepts by default (`group.min.session.timeout.ms`). Failover after a crash takes
    /// about this long plus the rebalance.
    public static let clusterSessionTimeout = Duration.seconds(6)
    /// The consumers' session timeout on librdkafka's mock cluster (the embedded broker or
    /// `herald broker`): its rebalance waits the session timeout minus 1 s after a member
    /// times out, so failover takes about 2 × this − 1 s: 7 s.
    public static let mockSessionTimeout = Duration.seconds(4)

    /// The consumers' fetch wait (`fetch.wait.max.ms`) on librdkafka's mock cluster. A Kafka
    /// broker answers a waiting fetch as soon as a message arrives, so the default (500 ms)
    /// costs nothing there; the mock cluster (librdkafka 2.0.2, `rdkafka_mock_handlers.c`)
    /// holds an empty fetch for the whole wait and is not woken by a produce, so each hop
    /// would add up to the wait to a message's latency (over a second end to end). 10 ms
    /// bounds that at the cost of about 100 empty fetches a second per idle consumer and broker.
    public static let mockFetchMaxWait = Duration.milliseconds(10)

    /// The cluster ID, once `ensureTopics` has asked the brokers.
    public var clusterID: String? { learnedClusterID.withLock { $0 } }

    /// Whether the brokers are librdkafka's mock cluster (its IDs read `mockCluster…`).
    public var isMockCluster: Bool { embedded != nil || (clusterID?.hasPrefix("mockCluster") ?? false) }

    /// Connects to an external cluster.
    public init(brokers: String, extraProperties: [String: String] = [:], logger: Logger) {
        var client = KafkaClientConfiguration(bootstrapServers: brokers)
        client.extraProperties = extraProperties
        self.client = client
        self.bootstrapServers = brokers
        self.embedded = nil
        self.embeddedRunID = nil
        self.logger = logger
    }

    /// Starts an embedded cluster on 127.0.0.1.
    public init(embeddedBrokers: Int, extraProperties: [String: String] = [:], logger: Logger) throws(KafkaError) {
        let cluster = try EmbeddedKafkaCluster(brokers: embeddedBrokers, logger: logger)
        var client = KafkaClientConfiguration(bootstrapServers: cluster.bootstrapServers)
        client.extraProperties = extraProperties
        self.client = client
        self.bootstrapServers = cluster.bootstrapServers
        self.embedded = cluster
        self.embeddedRunID = UUID().uuidString
        self.logger = logger
    }

    /// Creates the catalog's missing topics and checks co-partitioning.
    public func ensureTopics(_ catalog: TopicCatalog) async throws -> [EnsuredTopic] {
        if let embedded {
            try embedded.createTopics(catalog.specifications)
        }
        let admin = try KafkaAdmin(configuration: client, logger: logger)
        let ensured: [EnsuredTopic]
        do {
            ensured = try await admin.ensureTopics(catalog.specifications)
        } catch {
            await admin.close()
            throw error
        }
        let clusterID = try? await admin.clusterID()
        learnedClusterID.withLock { $0 = clusterID }
        await admin.close()
        try catalog.checkCoPartitioning(ensured)
        return ensured
    }

    public func producerConfiguration(clientID: String) -> ProducerConfiguration {
        var settings = ProducerConfiguration()
        settings.client = client
        settings.client.clientID = clientID
        return settings
    }

    public func consumerConfiguration(groupID: String, clientID: String) -> ConsumerConfiguration {
        var settings = ConsumerConfiguration()
        settings.client = client
        settings.client.clientID = clientID
        settings.groupID = groupID
        settings.sessionTimeout = isMockCluster ? Self.mockSessionTimeout : Self.clusterSessionTimeout
        if isMockCluster { settings.fetchMaxWait = Self.mockFetchMaxWait }
        return settings
    }
}
