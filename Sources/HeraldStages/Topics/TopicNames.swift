/// The full name of every catalog topic, resolved once from a `TopicCatalog` (e.g.
/// `herald.matches` for `matches`), so that stages read a property on the hot path
/// instead of concatenating the prefix per message, and share one set of names instead
/// of each declaring the topics it uses.
public struct TopicNames: Sendable, Hashable {
    public let recordChanges: String
    public let subscriptions: String
    /// Public and shared changes the match stage copies to the partitions of their subscriptions.
    public let changeFanout: String
    public let users: String
    public let matches: String
    public let notifications: String
    public let notificationReads: String
    public let badgeResets: String
    /// `BadgeCount`s written by the compose stage (docs/ARCHITECTURE.md §5.4).
    public let badges: String
    public let composeState: String
    public let schedules: String
    public let locations: String
    public let scheduleState: String
    public let scheduleFirings: String
    /// Registered push devices (`Device`), keyed `container/user/token` on the user's partition.
    public let devices: String
    public let pushState: String
    public let assetRecords: String
    public let assetReferences: String
    public let assetLedger: String
    public let assetCollection: String
    public let deadLetters: String
    public let logs: String

    /// The names of the catalog's topics under its prefix.
    public init(_ catalog: TopicCatalog) {
        let name = catalog.name
        recordChanges = name(TopicCatalog.recordChanges)
        subscriptions = name(TopicCatalog.subscriptions)
        changeFanout = name(TopicCatalog.changeFanout)
        users = name(TopicCatalog.users)
        matches = name(TopicCatalog.matches)
        notifications = name(TopicCatalog.notifications)
        notificationReads = name(TopicCatalog.notificationReads)
        badgeResets = name(TopicCatalog.badgeResets)
        badges = name(TopicCatalog.badges)
        composeState = name(TopicCatalog.composeState)
        schedules = name(TopicCatalog.schedules)
        locations = name(TopicCatalog.locations)
        scheduleState = name(TopicCatalog.scheduleState)
        scheduleFirings = name(TopicCatalog.scheduleFirings)
        devices = name(TopicCatalog.devices)
        pushState = name(TopicCatalog.pushState)
        assetRecords = name(TopicCatalog.assetRecords)
        assetReferences = name(TopicCatalog.assetReferences)
        assetLedger = name(TopicCatalog.assetLedger)
        assetCollection = name(TopicCatalog.assetCollection)
        deadLetters = name(TopicCatalog.deadLetters)
        logs = name(TopicCatalog.logs)
    }
}

extension TopicCatalog {
    /// The full names of the catalog's topics.
    public var names: TopicNames { TopicNames(self) }
}
