import HeraldKafka
import HeraldPipeline
import Logging

/// The match, compose and reader stages `PipelineBenchmark` measures, as one process runs
/// them, with what the benchmark needs to drive and observe them.
///
/// The caller builds it (today `herald bench pipeline`, from the executable's runtime), so
/// the benchmark measures the wiring that ships rather than a copy of it.
// TODO(issue 12): use HeraldApp.buildRuntime here once the composition root is a library,
// and drop the builder the executable passes in.
public struct BenchmarkedPipeline: Sendable {
    /// Builds the stages on `environment` with `catalog`'s topics, keeping their state in
    /// the data directory (a path).
    public typealias Builder = @Sendable (
        _ environment: KafkaEnvironment, _ catalog: TopicCatalog, _ dataDirectory: String, _ logger: Logger
    ) async throws -> BenchmarkedPipeline

    /// The producer the stages share; the benchmark produces subscriptions and changes with it.
    public var producer: KafkaProducer
    /// Subscriptions loaded into the match stage's table so far.
    public var subscriptionCount: @Sendable () -> Int
    /// Notifications in the reader's store so far.
    public var storedNotifications: @Sendable () async throws -> Int
    /// Runs the stages until `shutdown` is called.
    public var run: @Sendable () async throws -> Void
    /// Starts a graceful shutdown; `run` then returns.
    public var shutdown: @Sendable () async -> Void

    public init(
        producer: KafkaProducer, subscriptionCount: @escaping @Sendable () -> Int,
        storedNotifications: @escaping @Sendable () async throws -> Int,
        run: @escaping @Sendable () async throws -> Void, shutdown: @escaping @Sendable () async -> Void
    ) {
        self.producer = producer
        self.subscriptionCount = subscriptionCount
        self.storedNotifications = storedNotifications
        self.run = run
        self.shutdown = shutdown
    }
}
