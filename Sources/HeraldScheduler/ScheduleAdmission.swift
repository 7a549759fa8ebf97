import HeraldModel

/// What saving one schedule does to a user's pending schedules under the 64 limit
/// (`PendingLimit`), decided when the schedule is accepted (by the HTTP API), before the
/// schedule stage sees it.
///
/// Of the user's pending schedules in the container with the new one (replacing a pending
/// one of the same ID), the `PendingLimit.capacity` that fire soonest are kept. Each is
/// ranked by `PendingLimit.rank` in its own time zone: the user's current zone is not known
/// here; the schedule stage applies the limit again with it and is authoritative.
public struct ScheduleAdmission: Sendable, Hashable {
    /// Whether the new schedule is kept (and so published).
    public var admitted: Bool
    /// Every schedule the limit discards, in rank order: the new one among them when it is
    /// not admitted.
    public var discarded: [Schedule]
    /// The pending schedules to delete: the discarded others and, when the new schedule is
    /// not admitted, the pending version it would have replaced.
    public var tombstones: [Schedule]

    /// Creates a decision.
    public init(admitted: Bool, discarded: [Schedule], tombstones: [Schedule]) {
        self.admitted = admitted
        self.discarded = discarded
        self.tombstones = tombstones
    }

    /// The decision for saving `schedule` when the user has `pending` in its container, at `now`.
    /// - Parameters:
    ///   - schedule: the schedule saved; a pending one of the same `scheduleID` is replaced.
    ///   - pending: the user's pending schedules in the schedule's container.
    ///   - now: milliseconds since 1970.
    public static func deciding(_ schedule: Schedule, pending: [Schedule], now: Int64) -> ScheduleAdmission {
        let others = pending.filter { $0.scheduleID != schedule.scheduleID }
        let discarded = PendingLimit.partition(others + [schedule], now: now, userTimeZone: nil).discarded
        var tombstones = discarded.filter { $0.scheduleID != schedule.scheduleID }
        let admitted = tombstones.count == discarded.count
        if !admitted, let replaced = pending.first(where: { $0.scheduleID == schedule.scheduleID }) {
            // Discarded on arrival: the version it would have replaced goes too.
            tombstones.append(replaced)
        }
        return ScheduleAdmission(admitted: admitted, discarded: discarded, tombstones: tombstones)
    }

    /// Why `schedule` would show and do nothing when it fires, or `nil` when it would not. A
    /// `UILocalNotification` without an alert body, title, sound or badge number presents
    /// nothing (docs/cloudkit-behaviour.md §10; `userInfo`, `category` or `alertAction` alone only decorate
    /// an alert), so Herald would send an empty push: at least one of `alertBody`,
    /// `alertTitle` (non-empty), `soundName`, `applicationIconBadgeNumber` is required. The
    /// trigger is not: no fire date and no region fires immediately (docs/cloudkit-behaviour.md §10).
    /// - Returns: the reason, led by the JSON path `alertBody`.
    public static func contentProblem(of schedule: Schedule) -> String? {
        let shows = !(schedule.alertBody ?? "").isEmpty || !(schedule.alertTitle ?? "").isEmpty
        let does = !(schedule.soundName ?? "").isEmpty || schedule.applicationIconBadgeNumber != nil
        guard shows || does else {
            return "alertBody: required unless alertTitle, soundName or applicationIconBadgeNumber is given: a schedule must show or do something when it fires"
        }
        return nil
    }
}
