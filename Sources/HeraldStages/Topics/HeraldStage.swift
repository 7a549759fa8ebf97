/// The stages of docs/ARCHITECTURE.md §1.1. Each consumes as one consumer group, named `<prefix><stage>`.
public enum HeraldStage: String, CaseIterable, Sendable {
    case match, compose, reader, schedule, assets, push

    /// The topics the stage's group consumes.
    public var inputTopics: [TopicCatalog.Topic] {
        switch self {
        case .match: [TopicCatalog.recordChanges, TopicCatalog.changeFanout]
        case .compose: [TopicCatalog.matches, TopicCatalog.badgeResets, TopicCatalog.scheduleFirings]
        case .reader: [TopicCatalog.notifications, TopicCatalog.notificationReads, TopicCatalog.badges]
        case .schedule: [TopicCatalog.schedules, TopicCatalog.locations]
        case .assets: [TopicCatalog.recordChanges, TopicCatalog.assetReferences]
        case .push: [TopicCatalog.notifications, TopicCatalog.devices, TopicCatalog.notificationReads]
        }
    }

    /// The stages `all` means: every stage but `push`, which needs provider credentials.
    public static var standard: [HeraldStage] { allCases.filter { $0 != .push } }

    /// The consumer group, e.g. `herald.match`.
    public func groupID(prefix: String) -> String { prefix + rawValue }
}
