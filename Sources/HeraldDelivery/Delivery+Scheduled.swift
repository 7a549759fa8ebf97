import HeraldModel
import HeraldPayload

extension Delivery {
    /// Applies a schedule's firing to its recipient's state: the next notification of
    /// their stream. A schedule with `applicationIconBadgeNumber` sets the container's
    /// badge to it; without one the badge is left alone and not sent.
    /// - Throws: `PayloadError` when the firing cannot become a push (the state is then
    ///   unchanged; the caller dead-letters the input).
    public func deliver(
        _ firing: ScheduledFiring, at position: InputPosition, state: inout UserStreamState, profile: UserProfile?,
        now: Int64
    ) throws(PayloadError) -> Outcome {
        if state.appliedOffsets.contains(position) { return .skipped("already applied at \(position.source)@\(position.offset)") }
        if state.recentNotifications.contains(firing.firingID) {
            state.appliedOffsets.insert(position)
            return .skipped("firing \(firing.firingID) was already sent (the same firing delivered twice)")
        }
        let badge = firing.schedule.applicationIconBadgeNumber
        let composed = try scheduledComposer.compose(
            firing, sequence: state.nextSequence, createdAt: now, badge: badge, locale: profile?.locale)
        state.nextSequence += 1
        if let badge { state.badges[firing.container] = max(0, badge) }
        state.remember(firing.firingID)
        state.appliedOffsets.insert(position)
        return .notification(composed)
    }
}
