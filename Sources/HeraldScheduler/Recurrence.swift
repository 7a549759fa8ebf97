import Foundation
import HeraldModel

/// The fire instants of a dated schedule, for a user in a given time zone.
///
/// Occurrence `k` (0 is the fire date itself) is always computed from the fire date —
/// `k` units added to it, never one unit added to occurrence `k - 1` — so a monthly
/// schedule from Jan 31 fires on Feb 28/29, Mar 31, Apr 30…, and a yearly one from
/// Feb 29 on Feb 28 in common years and Feb 29 in leap years. A quarter is 3 months, a
/// week 7 days, a `weekday` one day (see `RepeatInterval`).
///
/// - **Absolute** schedules (no `timeZone`): the units are added to the instant in UTC
///   with the repeat calendar.
/// - **Floating** schedules (a `timeZone`): the alarm's wall-clock time as written
///   (`Schedule.alarmWallClock`: 02:30 even on a day that skips 02:30) is the base; `k` units are added to that wall-clock time as if it
///   were UTC (so daylight saving never shifts it), and the result is read as wall-clock
///   time in the user's current zone with `TimeZone.instant(forWallClock:)`: a time
///   skipped by a clock change fires the same distance after the change (02:30 → 03:30),
///   a time that occurs twice fires once, at the first.
///
/// Two occurrences can land on the same instant (hourly 02:30, moved to 03:30, meets the
/// 03:30 one): the instant fires once, and searches report its later index. Searches
/// estimate the index arithmetically, so a minute repeat from years ago costs no more
/// than one from yesterday.
public struct Recurrence: Sendable {
    /// An occurrence: its index from the fire date and its instant.
    public struct Occurrence: Sendable, Hashable {
        /// 0 for the fire date, `k` for `k` units after it.
        public var index: Int
        /// Milliseconds since 1970.
        public var instant: Int64
        // Only `Recurrence` makes occurrences: the memberwise initializer stays internal.
    }

    /// The repeat unit; `nil`: the fire date only.
    public let interval: RepeatInterval?
    /// The zone occurrences are read in: the user's (or the schedule's own) for a floating
    /// schedule, `nil` for an absolute one.
    public let zone: TimeZone?
    /// The fire date as an instant (absolute) or as a nominal wall-clock time (floating);
    /// `nil` when the schedule has no fire date (it has no occurrences).
    let base: Int64?
    let calendar: NominalCalendar

    /// The recurrence of `schedule` for a user whose current zone is `userTimeZone`.
    /// - Parameters:
    ///   - schedule: a decoded (validated) schedule; an unknown `timeZone` is treated as
    ///     absent and an unknown `repeatCalendar` as Gregorian.
    ///   - userTimeZone: the user's current zone; `nil`: the schedule's own. Ignored for
    ///     absolute schedules.
    public init(schedule: Schedule, userTimeZone: TimeZone?) {
        interval = schedule.repeatInterval
        calendar = NominalCalendar(schedule.calendar)
        if let own = schedule.resolvedTimeZone {
            zone = userTimeZone ?? own
            // The time as written, even when the fire date's own day skips it (Schedule.wallClockFireDate).
            base = schedule.alarmWallClock
        } else {
            zone = nil
            base = schedule.fireDate
        }
    }

    /// Whether occurrences follow the user's wall clock.
    public var isFloating: Bool { zone != nil }

    /// The instant of occurrence `k`; `nil` for `k < 0`, for `k > 0` without a repeat,
    /// without a fire date, or past year 9999.
    public func occurrence(_ k: Int) -> Int64? {
        nominal(k).map(place)
    }

    /// The first occurrence strictly after `instant` (a once-schedule: its fire date if
    /// that is after `instant`), or `nil`.
    public func next(after instant: Int64) -> Int64? {
        nextOccurrence(after: instant)?.instant
    }

    /// The first `count` distinct occurrence instants strictly after `instant`, in order.
    public func occurrences(after instant: Int64, count: Int) -> [Int64] {
        var result: [Int64] = []
        var cursor = instant
        while result.count < count, let next = next(after: cursor) {
            result.append(next)
            cursor = next
        }
        return result
    }

    /// Occurrence `k` before it is placed: an instant (absolute) or a nominal wall-clock time.
    func nominal(_ k: Int) -> Int64? {
        guard let base, k >= 0 else { return nil }
        guard let interval else { return k == 0 ? base : nil }
        if let length = interval.fixedMilliseconds {
            let (step, overflow) = Int64(k).multipliedReportingOverflow(by: length)
            guard !overflow, step <= max(0, ISO8601Instant.latest - base) else { return nil }
            return base + step
        }
        guard let step = NominalCalendar.Step(interval) else { return nil }
        return calendar.adding(k, step, to: base)
    }

    /// The instant of a nominal time: itself when absolute, read in `zone` when floating.
    func place(_ nominal: Int64) -> Int64 {
        zone?.instant(forWallClock: nominal) ?? nominal
    }
}
