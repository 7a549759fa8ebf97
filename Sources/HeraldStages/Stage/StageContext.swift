import HeraldKafka
import HeraldModel
import Logging

/// What the stages, followers and the reader of one process share: the topic catalog, the
/// shared producer, the readiness conditions, the logger, the clock and a way to make the
/// consumers that read outside any consumer group. Built once by the composition root and
/// passed to every initializer instead of the same arguments one by one.
public struct StageContext: Sendable {
    /// The topics' names and partition count.
    public var catalog: TopicCatalog
    /// The producer shared by the process (a stage with exactly-once brings its own).
    public var producer: KafkaProducer
    /// Where components report whether they are ready; `nil`: nobody asks.
    public var readiness: Readiness?
    public var logger: Logger
    /// The clock of stage decisions, milliseconds since 1970 (virtual in tests).
    public var clock: @Sendable () -> Int64
    /// Makes a consumer outside any consumer group (it assigns partitions itself) for the
    /// named purpose (e.g. `compose-users`), unique to the process.
    public var makeConsumer: @Sendable (_ purpose: String) throws -> KafkaConsumer

    public init(
        catalog: TopicCatalog, producer: KafkaProducer, readiness: Readiness?, logger: Logger,
        clock: @escaping @Sendable () -> Int64 = { EpochMilliseconds.now() },
        makeConsumer: @escaping @Sendable (_ purpose: String) throws -> KafkaConsumer
    ) {
        self.catalog = catalog
        self.producer = producer
        self.readiness = readiness
        self.logger = logger
        self.clock = clock
        self.makeConsumer = makeConsumer
    }

    /// The full name of a catalog topic.
    public func name(_ topic: TopicCatalog.Topic) -> String { catalog.name(topic) }

    /// The full names of the catalog's topics.
    public var topics: TopicNames { catalog.names }

    /// The dead-letter topic.
    public var deadLetterTopic: String { catalog.name(TopicCatalog.deadLetters) }

    /// Reads a stage's changelog partitions on assignment, with a consumer of its own
    /// (`<stage>-restore`) for each restore.
    public func changelogReader(for stage: String) -> ChangelogReader {
        let makeConsumer = makeConsumer
        return ChangelogReader { try makeConsumer("\(stage)-restore") }
    }
}
