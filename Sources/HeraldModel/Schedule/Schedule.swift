import Foundation

/// A scheduled notification (UILocalNotification, docs/cloudkit-behaviour.md §10): the value of the
/// compacted topic `schedules`, keyed by `partitionKey` (`container/recipient/scheduleID`);
/// a null value cancels it.
///
/// It fires on a date **or** on a region, never both:
/// - `fireDate` without `timeZone` is an absolute instant (a countdown);
/// - `fireDate` with `timeZone` is wall-clock time (an alarm clock): the date's wall-clock
///   time in `timeZone` fires at that wall-clock time in the user's **current** zone;
/// - neither a fire date nor a region, or a fire date in the past: it fires immediately;
/// - `repeatInterval` repeats a dated schedule in `repeatCalendar` (Gregorian by default).
///
/// ```json
/// {"scheduleID": "wake-up", "container": "iCloud.com.example.clock", "recipient": "_u1",
///  "fireDate": "2026-03-29T07:00:00", "timeZone": "Europe/Paris", "repeatInterval": "day",
///  "alertBody": "Good morning", "soundName": "chime.caf"}
/// ```
///
/// Decoding validates everything (see `init(from:)`); encoding omits absent members and
/// defaults, writes `fireDate` as UTC ISO 8601 and `repeatInterval` by name, and round-trips.
public struct Schedule: Sendable, Hashable {
    /// Unique per (container, recipient): non-empty, at most 255 UTF-8 bytes, no `/`.
    public var scheduleID: String
    public var container: String
    /// The user record name of the user it is for.
    public var recipient: String
    /// Milliseconds since 1970: the instant it (first) fires.
    public var fireDate: Int64?
    /// An IANA time zone identifier; present: `fireDate` is wall-clock time (see the type).
    public var timeZone: String?
    /// The alarm's wall-clock time as written, as nominal milliseconds (read in UTC), when
    /// `timeZone` has no such time that day (a spring-forward gap): `fireDate` is then the
    /// instant the gap resolves to (02:30 → 03:30) and later occurrences use this time
    /// (02:30 again). `nil` otherwise: the wall-clock time is `fireDate`'s in `timeZone`.
    /// On the wire `wallClockFireDate`, e.g. `"2026-03-29T02:30:00"`.
    public var wallClockFireDate: Int64?
    /// Absent: fires once.
    public var repeatInterval: RepeatInterval?
    /// A `RepeatCalendar` name; absent: `gregorian`.
    public var repeatCalendar: String?
    public var region: ScheduleRegion?
    /// Whether a region fires only on its first qualifying crossing (default true).
    public var regionTriggersOnce: Bool
    public var alertBody: String?
    /// The action button's title; absent: "View" (localized) when there is an alert body.
    public var alertAction: String?
    public var alertTitle: String?
    public var alertLaunchImage: String?
    public var category: String?
    public var soundName: String?
    /// Whether the alert shows its action button (default true).
    public var hasAction: Bool
    /// Present: firing sets the app's badge to this number (0 or more).
    public var applicationIconBadgeNumber: Int?
    /// Property-list values only (no `null` anywhere).
    public var userInfo: [String: JSONValue]?
    /// Milliseconds since 1970 when the API accepted it: the instant of an immediate firing.
    public var createdAt: Int64?

    /// Creates a schedule (not validated: validation happens on decode).
    public init(
        scheduleID: String, container: String, recipient: String, fireDate: Int64? = nil, timeZone: String? = nil,
        wallClockFireDate: Int64? = nil, repeatInterval: RepeatInterval? = nil, repeatCalendar: String? = nil, region: ScheduleRegion? = nil,
        regionTriggersOnce: Bool = true, alertBody: String? = nil, alertAction: String? = nil,
        alertTitle: String? = nil, alertLaunchImage: String? = nil, category: String? = nil,
        soundName: String? = nil, hasAction: Bool = true, applicationIconBadgeNumber: Int? = nil,
        userInfo: [String: JSONValue]? = nil, createdAt: Int64? = nil
    ) {
        self.scheduleID = scheduleID
        self.container = container
        self.recipient = recipient
        self.fireDate = fireDate
        self.timeZone = timeZone
        self.wallClockFireDate = wallClockFireDate
        self.repeatInterval = repeatInterval
        self.repeatCalendar = repeatCalendar
        self.region = region
        self.regionTriggersOnce = regionTriggersOnce
        self.alertBody = alertBody
        self.alertAction = alertAction
        self.alertTitle = alertTitle
        self.alertLaunchImage = alertLaunchImage
        self.category = category
        self.soundName = soundName
        self.hasAction = hasAction
        self.applicationIconBadgeNumber = applicationIconBadgeNumber
        self.userInfo = userInfo
        self.createdAt = createdAt
    }

    /// The Kafka key: `container/recipient/scheduleID`.
    public var partitionKey: String { "\(container)/\(recipient)/\(scheduleID)" }

    /// The key of the user's state and firings: the recipient.
    public var recipientKey: String { recipient }

    /// Whether the fire date is wall-clock time that follows the user's zone.
    public var isFloating: Bool { timeZone != nil }

    /// The schedule's own time zone; `nil` when absent (or, undecoded, unknown).
    public var resolvedTimeZone: TimeZone? { timeZone.flatMap(TimeZone.init(identifier:)) }

    /// The alarm's wall-clock time (nominal milliseconds) in the schedule's own zone: the
    /// time as written, which later occurrences keep; `nil` for an absolute or undated one.
    public var alarmWallClock: Int64? {
        guard let fireDate, let zone = resolvedTimeZone else { return nil }
        return wallClockFireDate ?? zone.wallClock(of: fireDate)
    }

    /// The repeat calendar; Gregorian when absent (or, undecoded, unknown).
    public var calendar: RepeatCalendar { repeatCalendar.flatMap(RepeatCalendar.init(rawValue:)) ?? .gregorian }
}
