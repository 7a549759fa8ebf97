import Foundation
import HeraldModel

/// A schedule a user has pending, with what the schedule stage needs to fire it: the
/// next fire instant of a dated schedule, or the inside/outside state of a region one.
public struct ArmedSchedule: Sendable, Hashable, Codable {
    public var schedule: Schedule
    /// The next occurrence, milliseconds since 1970; `nil` for a region schedule.
    public var nextFire: Int64?
    /// The index of the last occurrence fired (`Recurrence.Occurrence.index`); `nil`
    /// before the first. Kept so reading the schedule in another zone never fires the
    /// same occurrence twice.
    public var lastFiredIndex: Int?
    /// The identifier of the zone `nextFire` was computed in; `nil` for an absolute or
    /// region schedule.
    public var zone: String?
    /// The region state; `nil` for a dated schedule.
    public var region: RegionTracker?

    /// Creates an armed schedule.
    public init(
        schedule: Schedule, nextFire: Int64? = nil, lastFiredIndex: Int? = nil, zone: String? = nil,
        region: RegionTracker? = nil
    ) {
        self.schedule = schedule
        self.nextFire = nextFire
        self.lastFiredIndex = lastFiredIndex
        self.zone = zone
        self.region = region
    }

    /// The schedule's recurrence in the zone it is armed in.
    var recurrence: Recurrence {
        Recurrence(schedule: schedule, userTimeZone: zone.flatMap(TimeZone.init(identifier:)))
    }

    /// Where it ranks for the pending limit (a region after every dated schedule).
    var rank: PendingLimit.Rank {
        PendingLimit.Rank(instant: region == nil ? nextFire : nil, scheduleID: schedule.scheduleID)
    }
}
