import HeraldKafka
import HeraldReader
import HeraldStages
import Logging
import ServiceLifecycle
import Synchronization

/// Everything one Herald process runs, built by `HeraldApp.buildRuntime`: the stages'
/// services, the HTTP server, and the parts tools and tests look at.
public struct HeraldRuntime: Sendable {
    public let environment: KafkaEnvironment
    public let catalog: TopicCatalog
    /// The producer the stages share (and tools may use to feed the input topics).
    public let producer: KafkaProducer
    public let readiness: Readiness
    /// The stages running here.
    public let stages: [HeraldStage]
    /// The reader's store, when the reader runs here.
    public let store: NotificationStore?
    /// The API's subscription directory (every subscription, in SQLite), when the API runs here.
    public let directory: StoredSubscriptionDirectory?
    /// The match stage's subscriptions (those of its partitions), when it runs here.
    public let matchTable: PlacedSubscriptionTable?
    /// Runs every service; `triggerGracefulShutdown()` stops it (so do SIGTERM and SIGINT
    /// when the configuration handles signals).
    public let group: ServiceGroup
    let deadline: ShutdownDeadline
    let listening: ListeningPort

    /// The port the HTTP server listens on, once it runs (useful with port 0).
    public var httpPort: Int? { listening.port }

    /// Runs until shut down, then stops every service gracefully within the configured
    /// shutdown timeout (see `ShutdownDeadline`) and flushes the producer.
    public func run() async throws {
        defer { deadline.disarm() }
        do {
            try await group.run()
        } catch {
            await producer.close(timeout: deadline.flushShare)
            throw error
        }
        await producer.close(timeout: deadline.flushShare)
    }

    /// Starts a graceful shutdown, as SIGTERM does.
    public func triggerGracefulShutdown() async {
        await group.triggerGracefulShutdown()
    }
}

/// The HTTP server's port, known once it listens.
final class ListeningPort: Sendable {
    private let value = Mutex<Int?>(nil)

    var port: Int? { value.withLock { $0 } }

    func set(_ port: Int?) { value.withLock { $0 = port } }
}
