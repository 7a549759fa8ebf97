import HeraldKafka

extension TopicCatalog {
    /// How long a topic keeps its records: `nil` for compacted topics, which keep the latest
    /// value of every key for ever (`retention.ms=-1`).
    ///
    /// The choices follow from who must re-read the topic and how far back:
    /// - `notifications` and `notification-reads` rebuild a reader store from scratch, so they
    ///   keep at least the store's retention (28 days, CloudKit's notification lifetime) plus a
    ///   week of margin for a rebuild that starts late.
    /// - `dead-letters` keep 30 days so an operator can inspect and replay them after a fix.
    /// - The other streams are consumed within seconds; a week covers a long outage of their
    ///   consumer group, and `logs` are shipped elsewhere within hours.
    public static func retention(of topic: Topic) -> Duration? {
        if topic.compacted { return nil }
        switch topic.baseName {
        case notifications.baseName, notificationReads.baseName: return .days(35)
        case deadLetters.baseName: return .days(30)
        case logs.baseName: return .days(3)
        default: return .days(7)
        }
    }

    /// `min.insync.replicas` for this catalog's replication factor: with three or more
    /// replicas an acknowledged write survives the loss of one broker (2 in sync), the
    /// standard production setting; with fewer, every replica would be needed, so 1.
    public var minInSyncReplicas: Int32 { replicationFactor >= 3 ? 2 : 1 }

    /// The topic configuration `ensure` creates a topic with.
    func configs(of topic: Topic) -> [String: String] {
        var configs: [String: String] = ["min.insync.replicas": String(minInSyncReplicas)]
        if let retention = Self.retention(of: topic) {
            configs["retention.ms"] = String(retention.components.seconds * 1000)
        } else {
            configs["cleanup.policy"] = "compact"
            configs["min.compaction.lag.ms"] = "60000"
            configs["retention.ms"] = "-1"
        }
        return configs
    }
}

extension Duration {
    /// A number of 24-hour days.
    static func days(_ count: Int64) -> Duration { .seconds(count * 24 * 60 * 60) }
}
