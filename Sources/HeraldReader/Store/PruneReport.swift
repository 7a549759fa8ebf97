/// What an age sweep (`NotificationStore.prune(now:)`) removed.
public struct PruneReport: Sendable, Hashable {
    /// Streams whose pruned-through mark advanced: tokens before it now expire.
    public var prunedStreams: Set<StreamID> = []
    /// Notifications removed.
    public var notificationsRemoved = 0
    /// Read marks removed whose notification never arrived (or was already removed).
    public var readsRemoved = 0

    /// Nothing removed.
    public init() {}
}
