/// How a stage connects to its topics.
public struct StageConfiguration: Sendable {
    /// The stage's name (`match`, `compose`, …): its consumer group suffix, metric label, log label.
    public var name: String
    public var inputTopics: [String]
    public var deadLetterTopic: String
    /// Each consume→produce hop in a Kafka transaction (real clusters only). Default: off.
    public var exactlyOnce = false
    /// How a failed batch or restore is retried. Default: 200 ms, doubling up to 10 s.
    public var retry = RetryPolicy()
    /// Topics whose outputs are never set aside as dead letters (the stage's state
    /// changelogs): when Kafka refuses one for itself, the batch fails and is retried,
    /// loudly, because a state left out would be restored stale after a restart and reuse
    /// sequence numbers. Default: none.
    public var stateTopics: Set<String> = []
    /// How many batches' outputs may wait for their acknowledgement while the runner
    /// already consumes and processes the next ones (at-least-once only; exactly-once is
    /// never pipelined). Offsets are still stored in batch order, each batch's only once
    /// all its outputs are acknowledged. 1: each batch is delivered before the next poll.
    /// The processor must tolerate it (see `StageProcessor.delivered`). Default: 1.
    public var batchesInFlight = 1

    /// Pipelined, a poll's batch is processed and handed to the producer in parts of at
    /// most this many messages, so the first outputs leave before the whole poll is
    /// processed (a change waits for its part, not for up to a poll of 1000). Default: 200.
    public var pipelinedBatchSize = 200

    /// The depth of the stages whose processors are built for pipelining.
    public static let pipelinedBatchesInFlight = 4

    public init(name: String, inputTopics: [String], deadLetterTopic: String) {
        self.name = name
        self.inputTopics = inputTopics
        self.deadLetterTopic = deadLetterTopic
    }

    /// One of Herald's stages over a catalog: its input topics, the dead-letter topic, and
    /// every compacted topic as a state topic.
    public init(_ stage: HeraldStage, catalog: TopicCatalog) {
        self.init(
            name: stage.rawValue, inputTopics: stage.inputTopics.map(catalog.name),
            deadLetterTopic: catalog.name(TopicCatalog.deadLetters))
        stateTopics = Set(TopicCatalog.all.filter(\.compacted).map(catalog.name))
        // Match keeps no state per batch; compose and push stage per batch in a
        // `KeyedStateStore`, which layers the changes of undelivered batches. Push acts
        // outside Kafka while processing (its sends): a batch redone after a failed delivery
        // sends its pushes again, as a crash would — the repeat window is the batches in
        // flight (README, Push delivery). The others keep single-batch state aside
        // (schedule's zone checks, the asset ledgers' undo journals), so they deliver one
        // batch at a time.
        if stage == .match || stage == .compose || stage == .push { batchesInFlight = Self.pipelinedBatchesInFlight }
    }
}
