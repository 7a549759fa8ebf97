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
}
