import HeraldModel
import HeraldPayload

/// The compose step for one user (docs/ARCHITECTURE.md §1.1): a match becomes the next notification of the
/// recipient's stream — sequence, badge, locale, payload — and a badge reset sets the count.
/// Pure: the caller passes the state, the user's profile and the time.
public struct Delivery: Sendable {
    public var composer: NotificationComposer
    /// The apps' localizations for server-side rendering (`nil`: plain texts).
    public var catalog: LocalizationCatalog?
    /// Composes the firings of schedules.
    public var scheduledComposer = ScheduledComposer()

    public init(composer: NotificationComposer = NotificationComposer(), catalog: LocalizationCatalog? = nil) {
        self.composer = composer
        self.catalog = catalog
    }

    /// What became of one input.
    public enum Outcome: Sendable {
        /// A notification to append to the recipient's stream.
        case notification(ComposedNotification)
        /// Nothing to send: already applied (a replay), or a fires-once subscription that
        /// already fired for this user; the reason says which.
        case skipped(String)
    }

    /// Applies a match to its recipient's state.
    /// - Throws: `PayloadError` when the match cannot become a notification (the state is
    ///   then unchanged; the caller dead-letters the input).
    public func deliver(
        _ match: Match, at position: InputPosition, state: inout UserStreamState, profile: UserProfile?, now: Int64
    ) throws(PayloadError) -> Outcome {
        if state.appliedOffsets.contains(position) { return .skipped("already applied at \(position.source)@\(position.offset)") }
        let fingerprint = RecentNotifications.fingerprint(match.notificationID)
        if state.recentNotifications.contains(fingerprint)
            || state.recentNotifications.contains(RecentNotifications.fingerprint(match.legacyNotificationUUID)) {
            state.appliedOffsets.insert(position)
            return .skipped("notification \(match.notificationID) was already sent (the same change delivered twice)")
        }
        let subscription = match.subscription
        if subscription.firesOnce, state.hasFired(subscription) {
            state.appliedOffsets.insert(position)
            return .skipped("fires-once subscription \(subscription.subscriptionID) already fired")
        }
        let container = subscription.container
        let badge = subscription.notificationInfo.shouldBadge ? (state.badges[container] ?? 0) + 1 : nil
        let composed = try composer.compose(
            match, sequence: state.nextSequence, createdAt: now, badge: badge, locale: profile?.locale,
            catalog: catalog)
        state.nextSequence += 1
        if let badge { state.badges[container] = badge }
        if subscription.firesOnce { state.recordFired(subscription) }
        state.recentNotifications.remember(fingerprint: fingerprint)
        state.appliedOffsets.insert(position)
        return .notification(composed)
    }

    /// Applies a badge reset; `false` when it was already applied (a replay).
    public func apply(_ reset: BadgeReset, at position: InputPosition, state: inout UserStreamState) -> Bool {
        if state.appliedOffsets.contains(position) { return false }
        state.badges[reset.containerIdentifier] = reset.badge
        state.appliedOffsets.insert(position)
        return true
    }
}
