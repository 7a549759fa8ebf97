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
    }
}
