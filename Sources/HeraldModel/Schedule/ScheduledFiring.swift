import Foundation

/// One firing of a schedule, addressed to its recipient: the value of topic
/// `schedule-firings`, keyed by `recipient`, which the compose stage turns into a
/// `scheduled` notification.
///
/// `firingID` is deterministic — UUIDv5 of `schedule/container/recipient/scheduleID@instant`
/// in `UUID.heraldNamespace` — so a replayed or restarted schedule stage produces the same
/// ID for the same occurrence and downstream drops the duplicate.
public struct ScheduledFiring: Sendable, Hashable, Codable {
    /// What made it fire.
    public enum Trigger: String, WireEnum {
        /// An occurrence of the fire date came due.
        case date
        /// Scheduled with no fire date, or one in the past.
        case immediate
        /// The device entered the region.
        case regionEntry
        /// The device left the region.
        case regionExit

        public static var wireName: String { "trigger" }
    }

    /// Lower-case UUIDv5 string; see `ScheduledFiring.firingID(container:recipient:scheduleID:instant:)`.
    public var firingID: String
    /// The user (the Kafka key).
    public var recipient: String
    public var container: String
    public var scheduleID: String
    /// Milliseconds since 1970: the occurrence this firing is for (for a region, the
    /// location's timestamp).
    public var fireDate: Int64
    public var trigger: Trigger
    /// The schedule as it was when it fired.
    public var schedule: Schedule

    /// Creates a firing of `schedule` for `instant` and derives its ID.
    public init(schedule: Schedule, fireDate instant: Int64, trigger: Trigger) {
        self.recipient = schedule.recipient
        self.container = schedule.container
        self.scheduleID = schedule.scheduleID
        self.fireDate = instant
        self.trigger = trigger
        self.schedule = schedule
        self.firingID = Self.firingID(
            container: schedule.container, recipient: schedule.recipient, scheduleID: schedule.scheduleID, instant: instant)
    }

    /// The Kafka key: the recipient.
    public var partitionKey: String { recipient }

    /// The deterministic ID of the firing of a schedule for an instant: the lower-case
    /// UUIDv5 of `"schedule/\(container)/\(recipient)/\(scheduleID)@\(instant)"` in `UUID.heraldNamespace`.
    public static func firingID(container: String, recipient: String, scheduleID: String, instant: Int64) -> String {
        UUID(version5: "schedule/\(container)/\(recipient)/\(scheduleID)@\(instant)", namespace: .heraldNamespace)
            .lowercasedString
    }

    private enum CodingKeys: String, CodingKey { case firingID, recipient, container, scheduleID, fireDate, trigger, schedule }

    /// Decodes and validates: the IDs agree with the schedule's, the fire date is not
    /// negative, and `firingID` is the one derived from them.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        firingID = try c.decodeNonEmpty(.firingID)
        recipient = try c.decodeNonEmpty(.recipient)
        container = try c.decodeNonEmpty(.container)
        scheduleID = try c.decodeNonEmpty(.scheduleID)
        fireDate = try c.decodeNonNegative(.fireDate)
        trigger = try c.decode(Trigger.self, forKey: .trigger)
        schedule = try c.decode(Schedule.self, forKey: .schedule)
        let mismatched: [(CodingKeys, String, String)] = [
            (.recipient, recipient, schedule.recipient), (.container, container, schedule.container),
            (.scheduleID, scheduleID, schedule.scheduleID),
        ]
        if let (key, value, expected) = mismatched.first(where: { $0.1 != $0.2 }) {
            throw c.error(.invalidValue, "\"\(value)\" is not the schedule's \(key.stringValue) \"\(expected)\"", at: key)
        }
        let expected = Self.firingID(container: container, recipient: recipient, scheduleID: scheduleID, instant: fireDate)
        guard firingID == expected else {
            throw c.error(
                .invalidValue,
                "firingID \(firingID) is not the one derived from container/recipient/scheduleID@fireDate (\(expected))",
                at: .firingID)
        }
    }
}
