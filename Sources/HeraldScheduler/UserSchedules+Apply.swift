import Foundation
import HeraldModel

extension UserSchedules {
    /// Arms `schedule` (replacing any schedule with its key), firing it now if it is due.
    ///
    /// - A region schedule is armed with an unknown inside/outside state (see `RegionTracker`).
    /// - A dated schedule whose fire date is not after `now` fires immediately (trigger
    ///   `.immediate`) for its latest occurrence at or before `now`; a repeating one is
    ///   then armed for its next occurrence after `now`, a once one is finished.
    /// - A schedule with neither a fire date nor a region fires immediately, once, for
    ///   `createdAt`, else `receivedAt`, else `now` (a repeat interval needs a fire date
    ///   to count from and is ignored).
    /// - A replacement starts afresh: nothing of the old schedule's state is kept.
    ///
    /// Then the pending limit is enforced for the schedule's container.
    /// - Parameters:
    ///   - position: where the input came from; an input already applied is ignored.
    ///   - now: the current time.
    ///   - userZone: the user's current zone (`nil`: each schedule's own).
    ///   - receivedAt: a fallback instant for an immediate firing without `createdAt`,
    ///     such as the Kafka message timestamp.
    /// - Returns: the firings, the keys discarded by the limit and the finished keys. A
    ///   schedule for another recipient is ignored.
    public mutating func apply(
        _ schedule: Schedule, at position: InputPosition, now: Int64, userZone: TimeZone?, receivedAt: Int64? = nil
    ) -> ScheduleOutcome {
        guard appliedOffsets.insert(position) else { return .replay }
        guard schedule.recipient == recipient else { return ScheduleOutcome() }
        let key = schedule.partitionKey
        schedules[key] = nil
        var outcome = ScheduleOutcome()
        if schedule.region != nil {
            schedules[key] = ArmedSchedule(schedule: schedule, region: RegionTracker())
        } else if schedule.fireDate != nil {
            var armed = ArmedSchedule(schedule: schedule, zone: schedule.isFloating ? Self.zoneID(userZone, schedule) : nil)
            let recurrence = armed.recurrence
            if let due = recurrence.latestOccurrence(atOrBefore: now) {
                outcome.firings.append(ScheduledFiring(schedule: schedule, fireDate: due.instant, trigger: .immediate))
                armed.lastFiredIndex = due.index
            }
            if let next = recurrence.nextOccurrence(after: now, beyond: armed.lastFiredIndex) {
                armed.nextFire = next.instant
                schedules[key] = armed
            } else {
                outcome.finished.append(key)
            }
        } else {
            let instant = schedule.createdAt ?? receivedAt ?? now
            outcome.firings.append(ScheduledFiring(schedule: schedule, fireDate: instant, trigger: .immediate))
            outcome.finished.append(key)
        }
        outcome.discarded = enforceLimit(container: schedule.container)
        return outcome
    }

    /// Removes all but the `PendingLimit.capacity` soonest schedules of `container`.
    /// - Returns: the removed keys, in rank order.
    mutating func enforceLimit(container: String) -> [String] {
        let armed = schedules.filter { $0.value.schedule.container == container }
        guard armed.count > PendingLimit.capacity else { return [] }
        let discarded = PendingLimit.partition(Array(armed)) { $0.value.rank }.discarded.map(\.key)
        for key in discarded { schedules[key] = nil }
        return discarded
    }

    /// The zone a floating schedule is read in: the user's, else its own.
    static func zoneID(_ userZone: TimeZone?, _ schedule: Schedule) -> String? {
        userZone?.identifier ?? schedule.timeZone
    }
}
