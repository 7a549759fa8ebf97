import HeraldModel

// The JSON bodies the schedule routes answer.

/// A schedule as the API answers it: its members as stored on the `schedules` topic, plus
/// `nextFireDate` (ISO 8601 UTC, or `null` for a region schedule).
struct ScheduleView: Encodable, Sendable {
    var schedule: Schedule
    /// Milliseconds since 1970; `nil` for a region schedule.
    var nextFireDate: Int64?

    private enum CodingKeys: String, CodingKey { case nextFireDate }

    func encode(to encoder: any Encoder) throws {
        try schedule.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        if let nextFireDate {
            try container.encode(ISO8601Instant.format(nextFireDate), forKey: .nextFireDate)
        } else {
            try container.encodeNil(forKey: .nextFireDate)
        }
    }
}

/// `POST schedules` answer: the schedule and the IDs the 64 limit discarded (which may
/// include its own: then it was not stored).
struct SavedSchedule: Encodable, Sendable {
    var schedule: ScheduleView
    var discarded: [String]
}

/// `GET schedules` answer.
struct ScheduleList: Encodable, Sendable {
    var schedules: [ScheduleView]
}

/// `DELETE schedules/{id}` answer.
struct DeletedSchedule: Encodable, Sendable {
    var scheduleID: String
    var deleted: Bool
}
