import Foundation
import Testing

@testable import HeraldModel

/// `wallClockFireDate`: the written time of an alarm its own day skips (issue 16).
@Suite("Schedules keep a wall-clock fire date that a daylight-saving gap skips")
struct ScheduleWallClockTests {
    static func alarm(fire: JSONValue, zone: String? = "Europe/Paris") throws -> String {
        try Fixtures.edit(Fixtures.edit(ScheduleTests.alarm, "fireDate", fire), "timeZone", zone.map(JSONValue.string))
    }

    @Test("02:30 on the Paris gap day: fireDate is 03:30 CEST, the written 02:30 is kept and round-trips")
    func gapKept() throws {
        let schedule = try Fixtures.decode(Schedule.self, Self.alarm(fire: "2026-03-29T02:30:00"))
        #expect(schedule.fireDate.map(ISO8601Instant.format) == "2026-03-29T01:30:00Z")
        #expect(schedule.wallClockFireDate.map(ISO8601Instant.format) == "2026-03-29T02:30:00Z")
        #expect(schedule.alarmWallClock.map(ISO8601Instant.format) == "2026-03-29T02:30:00Z")
        let text = String(decoding: try Fixtures.codec.encode(schedule), as: UTF8.self)
        #expect(text.contains(#""fireDate":"2026-03-29T01:30:00Z""#) && text.contains(#""wallClockFireDate":"2026-03-29T02:30:00""#))
        _ = try Fixtures.roundTrip(schedule)
    }

    @Test("a time that exists (once or twice) or an instant is encoded as before, without wallClockFireDate", arguments: [
        "2026-03-29T03:30:00", "2026-10-25T02:30:00", "2026-03-29T01:30:00Z",
    ])
    func existingTimes(fire: String) throws {
        let schedule = try Fixtures.decode(Schedule.self, Self.alarm(fire: .string(fire)))
        #expect(schedule.wallClockFireDate == nil)
        #expect(!String(decoding: try Fixtures.codec.encode(schedule), as: UTF8.self).contains("wallClockFireDate"))
    }

    @Test("wallClockFireDate must be wall-clock text that the zone places at fireDate", arguments: [
        ("2026-03-29T01:30:00Z", "Europe/Paris", "2026-03-29T02:15:00"),  // names 03:15, not 03:30
        ("2026-03-29T01:30:00Z", "Europe/Paris", "2026-03-29T02:30:00Z"),  // an instant
        ("2026-03-29T01:30:00Z", nil, "2026-03-29T02:30:00"),  // no zone to read it in
        ("2026-03-29T02:30:00", "Europe/Paris", "2026-03-29T02:45:00"),  // disagrees with the written fireDate
    ])
    func memberValidated(fire: String, zone: String?, member: String) throws {
        let json = try Fixtures.edit(Self.alarm(fire: .string(fire), zone: zone), "wallClockFireDate", .string(member))
        let error = Fixtures.decodeError(Schedule.self, json)
        #expect(error?.path == "wallClockFireDate")
    }

    @Test("wallClockFireDate given with the resolved instant is accepted, as the topic and the state hold it")
    func memberAccepted() throws {
        let json = try Fixtures.edit(Self.alarm(fire: "2026-03-29T01:30:00Z"), "wallClockFireDate", "2026-03-29T02:30:00")
        let schedule = try Fixtures.decode(Schedule.self, json)
        #expect(schedule.wallClockFireDate.map(ISO8601Instant.format) == "2026-03-29T02:30:00Z")
    }
}
