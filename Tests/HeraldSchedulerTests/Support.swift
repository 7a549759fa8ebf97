import Foundation
import HeraldModel
import HeraldScheduler

/// Virtual-time helpers shared by the scheduler suites: instants are written as ISO 8601
/// text, schedules built in one line.
enum Support {
    static let paris = zone("Europe/Paris")
    static let newYork = zone("America/New_York")

    static func zone(_ identifier: String) -> TimeZone {
        guard let zone = TimeZone(identifier: identifier) else { fatalError("unknown zone \(identifier) in a test") }
        return zone
    }

    /// An instant from text with `Z` or an offset, or wall-clock text read in `zone`.
    static func at(_ text: String, in zone: TimeZone? = nil) -> Int64 {
        switch try? ISO8601Instant.parse(text) {
        case .instant(let instant)?: return instant
        case .wallClock(let nominal)?:
            guard let zone else { fatalError("\(text) needs a zone") }
            return zone.instant(forWallClock: nominal)
        case nil: fatalError("bad instant \(text) in a test")
        }
    }

    static func iso(_ instant: Int64) -> String { ISO8601Instant.format(instant) }

    /// The wall-clock text (`2026-03-29T03:30:00Z` style, the `Z` meaning nothing) of an instant in `zone`.
    static func local(_ instant: Int64, _ zone: TimeZone) -> String {
        String(iso(zone.wallClock(of: instant)).dropLast())
    }

    /// A schedule; `fire` is ISO text, read as wall-clock time in `zone` when it has no offset.
    static func schedule(
        _ id: String = "s1", fire: String? = nil, zone: String? = nil, every interval: RepeatInterval? = nil,
        calendar: String? = nil, region: ScheduleRegion? = nil, regionTriggersOnce: Bool = true,
        container: String = "iCloud.com.example.clock", recipient: String = "_u1", createdAt: Int64? = nil
    ) -> Schedule {
        Schedule(
            scheduleID: id, container: container, recipient: recipient,
            fireDate: fire.map { at($0, in: zone.map(Support.zone)) }, timeZone: zone, repeatInterval: interval,
            repeatCalendar: calendar, region: region, regionTriggersOnce: regionTriggersOnce, alertBody: "Hello",
            createdAt: createdAt)
    }

    /// The ISO text of the first `count` occurrences strictly after `after`.
    static func next(_ schedule: Schedule, after: String, count: Int, userZone: TimeZone? = nil) -> [String] {
        Recurrence(schedule: schedule, userTimeZone: userZone).occurrences(after: at(after), count: count).map(iso)
    }
}
