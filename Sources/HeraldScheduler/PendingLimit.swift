import Foundation
import HeraldModel

/// UILocalNotification's limit on pending schedules (docs/cloudkit-behaviour.md §10): per user and app
/// only the `capacity` that fire soonest are kept, a repeating one counting once; the
/// rest are discarded.
///
/// Ranking, soonest first:
/// 1. timed schedules by their next fire instant after `now`: a repeating one by its next
///    occurrence only (one with a past fire date fires now and stays pending for that
///    occurrence); a once-schedule in the past, or one without a fire date, fires now;
/// 2. then region schedules, which have no fire instant: Herald cannot know when a user
///    will cross a region, so it treats them as firing later than any timed schedule
///    (a new alarm displaces a region, never the reverse);
/// 3. ties, and regions among themselves, by `scheduleID`.
public enum PendingLimit {
    /// How many schedules one (recipient, container) keeps.
    public static let capacity = 64

    /// Where a schedule ranks: by `instant` (`nil`, a region, after every instant), then `scheduleID`.
    public struct Rank: Sendable, Hashable, Comparable {
        /// The next fire instant; `nil` for a region schedule.
        public var instant: Int64?
        public var scheduleID: String

        /// A rank for a schedule firing at `instant` (`nil`: a region schedule).
        public init(instant: Int64?, scheduleID: String) {
            self.instant = instant
            self.scheduleID = scheduleID
        }

        public static func < (lhs: Rank, rhs: Rank) -> Bool {
            switch (lhs.instant, rhs.instant) {
            case let (left?, right?) where left != right: left < right
            case (_?, nil): true
            case (nil, _?): false
            default: lhs.scheduleID < rhs.scheduleID
            }
        }
    }

    /// The rank of `schedule` at `now` for a user in `userTimeZone`.
    public static func rank(_ schedule: Schedule, now: Int64, userTimeZone: TimeZone?) -> Rank {
        guard schedule.region == nil else { return Rank(instant: nil, scheduleID: schedule.scheduleID) }
        // No fire date, or a once-schedule's in the past: it fires now. A repeating one
        // fires now too, but then stays pending for its next occurrence, which is what counts.
        let next = schedule.fireDate == nil ? nil : Recurrence(schedule: schedule, userTimeZone: userTimeZone).next(after: now)
        return Rank(instant: next ?? now, scheduleID: schedule.scheduleID)
    }

    /// Splits one (recipient, container)'s schedules into the `capacity` kept, soonest
    /// first, and the discarded rest, in rank order.
    public static func partition(
        _ schedules: [Schedule], now: Int64, userTimeZone: TimeZone?
    ) -> (kept: [Schedule], discarded: [Schedule]) {
        partition(schedules) { rank($0, now: now, userTimeZone: userTimeZone) }
    }

    /// Splits any items by a rank, as above.
    public static func partition<Item>(_ items: [Item], rank: (Item) -> Rank) -> (kept: [Item], discarded: [Item]) {
        let sorted = items.map { (rank($0), $0) }.sorted { $0.0 < $1.0 }.map(\.1)
        return (Array(sorted.prefix(capacity)), Array(sorted.dropFirst(capacity)))
    }
}
