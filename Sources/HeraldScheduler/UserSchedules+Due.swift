import Foundation
import HeraldModel

extension UserSchedules {
    /// Fires every dated schedule that is due at `now`, exactly once per occurrence.
    ///
    /// When several occurrences of one repeating schedule were missed (the stage was
    /// down), only the **latest** missed one fires — a user back from a week offline gets
    /// one "daily" reminder, not seven — then the schedule is re-armed for its next
    /// occurrence after `now`. Once-schedules that fired are finished.
    /// - Returns: the firings (trigger `.date`) by instant then key, and the finished keys.
    public mutating func fireDue(now: Int64) -> ScheduleOutcome {
        var outcome = ScheduleOutcome()
        let due = schedules.filter { ($0.value.nextFire ?? .max) <= now }.keys.sorted()
        for key in due {
            guard var armed = schedules[key] else { continue }
            let recurrence = armed.recurrence
            if let occurrence = recurrence.latestOccurrence(atOrBefore: now, beyond: armed.lastFiredIndex) {
                outcome.firings.append(ScheduledFiring(schedule: armed.schedule, fireDate: occurrence.instant, trigger: .date))
                armed.lastFiredIndex = occurrence.index
            }
            if let next = recurrence.nextOccurrence(after: now, beyond: armed.lastFiredIndex) {
                armed.nextFire = next.instant
                schedules[key] = armed
            } else {
                schedules[key] = nil
                outcome.finished.append(key)
            }
        }
        outcome.firings.sort { ($0.fireDate, $0.schedule.partitionKey) < ($1.fireDate, $1.schedule.partitionKey) }
        return outcome
    }

    /// Re-reads the floating schedules in the user's new zone (`nil`: each schedule's own).
    ///
    /// Each is re-armed for its first occurrence after `now` that has not fired yet, so
    /// moving west never fires an occurrence twice (the 08:00 alarm that fired in Paris
    /// does not fire again at 08:00 in New York the same day). Moving east can put an
    /// occurrence that has not fired yet in the past (at 07:00 in New York, today's
    /// 08:00 in Paris is already over): it is skipped, not fired late, and a
    /// once-schedule left with no occurrence is finished. Absolute and region schedules
    /// are unaffected.
    /// - Returns: the finished keys (never firings).
    @discardableResult
    public mutating func timeZoneChanged(to zone: TimeZone?, now: Int64) -> ScheduleOutcome {
        var outcome = ScheduleOutcome()
        for key in schedules.keys.sorted() {
            guard var armed = schedules[key], armed.schedule.isFloating, armed.region == nil else { continue }
            let zoneID = Self.zoneID(zone, armed.schedule)
            guard zoneID != armed.zone else { continue }
            armed.zone = zoneID
            if let next = armed.recurrence.nextOccurrence(after: now, beyond: armed.lastFiredIndex) {
                armed.nextFire = next.instant
                schedules[key] = armed
            } else {
                schedules[key] = nil
                outcome.finished.append(key)
            }
        }
        return outcome
    }
}
