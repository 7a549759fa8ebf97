/// The stages of docs/ARCHITECTURE.md §1.1. Each consumes as one consumer group, named `<prefix><stage>`.
public enum HeraldStage: String, CaseIterable, Sendable {
    case match, compose, reader, schedule, assets

    /// The topics the stage's group consumes.
    public var inputTopics: [TopicCatalog.Topic] {
        switch self {
        case .match: [TopicCatalog.recordChanges, TopicCatalog.changeFanout]
        case .compose: [TopicCatalog.matches, TopicCatalog.badgeResets, TopicCatalog.scheduleFirings]
        case .reader: [TopicCatalog.notifications, TopicCatalog.notificationReads, TopicCatalog.badges]
        case .schedule: [TopicCatalog.schedules, TopicCatalog.locations]
        case .assets: [TopicCatalog.recordChanges, TopicCatalog.assetReferences]
        }
    }

    /// The consumer group, e.g. `herald.match`.
    public func groupID(prefix: String) -> String { prefix + rawValue }
}
