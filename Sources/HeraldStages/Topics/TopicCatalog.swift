import HeraldKafka

/// Herald's topics: names under one prefix, partition counts, compaction.
///
/// Topics keyed by user (`users`, `matches`, `notifications`, …) are co-partitioned: the
/// default partitioner puts one user's records on the same partition number everywhere, so
/// they must share one partition count. `ensure` checks that.
public struct TopicCatalog: Sendable {
    /// One topic of the catalog.
    public struct Topic: Sendable, Hashable {
        /// The name without the prefix, e.g. `record-changes`.
        public var baseName: String
        /// Compacted topics keep the latest value per key (a null value deletes the key).
        public var compacted: Bool
        /// Keyed by recipient user: co-partitioned with the other user-keyed topics.
        public var keyedByUser: Bool
        /// What the topic carries, for `herald topics` and the README.
        public var purpose: String
    }

    public static let recordChanges = Topic(baseName: "record-changes", compacted: false, keyedByUser: false, purpose: "record changes from upstream, keyed container/database/zoneOwner (public: container/public/recordName)")
    public static let subscriptions = Topic(baseName: "subscriptions", compacted: true, keyedByUser: false, purpose: "subscriptions, keyed container/database/owner/id on their owner's partition; null deletes")
    public static let changeFanout = Topic(baseName: "change-fanout", compacted: false, keyedByUser: false, purpose: "public and shared record changes, copied by the match stage to the partitions holding subscriptions they can fire")
    public static let users = Topic(baseName: "users", compacted: true, keyedByUser: true, purpose: "user locale and time zone")
    public static let matches = Topic(baseName: "matches", compacted: false, keyedByUser: true, purpose: "one fired (change, subscription) per record")
    public static let notifications = Topic(baseName: "notifications", compacted: false, keyedByUser: true, purpose: "composed notifications, per recipient")
    public static let notificationReads = Topic(baseName: "notification-reads", compacted: false, keyedByUser: true, purpose: "mark-read requests")
    public static let badgeResets = Topic(baseName: "badge-resets", compacted: false, keyedByUser: true, purpose: "badge count changes")
    public static let badges = Topic(baseName: "badges", compacted: true, keyedByUser: true, purpose: "badge count per user and container (BadgeCount), keyed container/recipient on the recipient's partition")
    public static let composeState = Topic(baseName: "compose-state", compacted: true, keyedByUser: true, purpose: "compose stage per-user state changelog")
    public static let schedules = Topic(baseName: "schedules", compacted: true, keyedByUser: true, purpose: "scheduled and region notifications")
    public static let locations = Topic(baseName: "locations", compacted: false, keyedByUser: true, purpose: "device locations for region triggers")
    public static let scheduleState = Topic(baseName: "schedule-state", compacted: true, keyedByUser: true, purpose: "schedule stage state changelog")
    public static let scheduleFirings = Topic(baseName: "schedule-firings", compacted: false, keyedByUser: true, purpose: "schedules that fired, into the compose stage")
    public static let devices = Topic(baseName: "devices", compacted: true, keyedByUser: true, purpose: "registered push devices, keyed container/user/token on the user's partition; null removes")
    public static let pushState = Topic(baseName: "push-state", compacted: true, keyedByUser: true, purpose: "push stage per-user changelog: devices, what was pushed to each, pending retries")
    public static let assetRecords = Topic(baseName: "asset-records", compacted: true, keyedByUser: false, purpose: "asset ledger: each record's assets (changelog, partitioned like record-changes)")
    public static let assetReferences = Topic(baseName: "asset-refs", compacted: false, keyedByUser: false, purpose: "asset references, keyed by file checksum")
    public static let assetLedger = Topic(baseName: "asset-ledger", compacted: true, keyedByUser: false, purpose: "asset ledger: referencing records per checksum (changelog)")
    public static let assetCollection = Topic(baseName: "asset-gc", compacted: false, keyedByUser: false, purpose: "unreferenced assets past the grace period")
    public static let deadLetters = Topic(baseName: "dead-letters", compacted: false, keyedByUser: false, purpose: "input no stage could process, with the reason")
    public static let logs = Topic(baseName: "logs", compacted: false, keyedByUser: false, purpose: "structured log lines of every instance")

    /// Every topic, in data-flow order.
    public static let all: [Topic] = [
        recordChanges, subscriptions, changeFanout, users, matches, notifications, notificationReads, badgeResets,
        badges, composeState, schedules, locations, scheduleState, scheduleFirings, devices, pushState, assetRecords, assetReferences, assetLedger,
        assetCollection, deadLetters, logs,
    ]

    /// Default `herald.`.
    public var prefix: String = "herald."
    /// Partitions of every topic. Default: 6.
    public var partitions: Int32 = 6
    /// Default: 1 (set 3 on a production cluster).
    public var replicationFactor: Int32 = 1

    public init() {}

    public init(prefix: String, partitions: Int32, replicationFactor: Int32 = 1) {
        self.prefix = prefix
        self.partitions = partitions
        self.replicationFactor = replicationFactor
    }

    /// The full name of a topic, e.g. `herald.record-changes`.
    public func name(_ topic: Topic) -> String { prefix + topic.baseName }

    /// What `ensure` creates: partitions, replication and configs (`configs(of:)`).
    public var specifications: [TopicSpecification] {
        Self.all.map { topic in
            TopicSpecification(
                name: name(topic), partitions: partitions, replicationFactor: replicationFactor, configs: configs(of: topic))
        }
    }

    /// Checks that the user-keyed topics share one partition count, and that every topic
    /// has the catalog's count: followers read partitions `0..<partitions`, stages write
    /// their changelogs to their input's partition number, and schedules are placed on
    /// their recipient's partition.
    /// - Throws: `PipelineError` naming the topics that differ.
    public func checkCoPartitioning(_ ensured: [EnsuredTopic]) throws(PipelineError) {
        let userKeyed = Set(Self.all.filter(\.keyedByUser).map(name))
        let counts = ensured.filter { userKeyed.contains($0.name) }
        if let first = counts.first, counts.contains(where: { $0.partitions != first.partitions }) {
            let listing = counts.map { "\($0.name)=\($0.partitions)" }.joined(separator: ", ")
            throw PipelineError(
                code: .topicLayout,
                reason: "topics keyed by user must have the same partition count to be co-partitioned: \(listing)")
        }
        let ours = Set(Self.all.map(name))
        let differing = ensured.filter { ours.contains($0.name) && $0.partitions != partitions }
        guard !differing.isEmpty else { return }
        let listing = differing.map { "\($0.name)=\($0.partitions)" }.joined(separator: ", ")
        throw PipelineError(
            code: .topicLayout,
            reason: "Herald runs with \(partitions) partitions per topic but these topics exist with another count: \(listing); start it with the topics' count (--partitions) or recreate them")
    }
}
