import Foundation
import HeraldModel
import HeraldScheduler
import Testing

/// The alarm written at a time its own day skips (docs/cloudkit-behaviour.md §10, issue
/// 16): that day fires the same distance after the change, later days at the written time.
///
/// 2026 changes: Europe/Paris 02:00 → 03:00 on Mar 29 (and 2027-03-28), 03:00 → 02:00 on
/// Oct 25; America/New_York 02:00 → 03:00 on Mar 8; Australia/Lord_Howe 02:00 → 02:30
/// on Oct 4 (a 30-minute change); America/Santiago 24:00 → 01:00 on Sep 6 (midnight).
@Suite("Alarms written in a daylight-saving gap keep their wall-clock time")
struct DaylightGapTests {
    /// A schedule decoded from the wire, as the API, the CLI and the stage read it.
    static func decoded(fire: String, zone: String, every interval: String? = "day") throws -> Schedule {
        var members: [String: JSONValue] = [
            "scheduleID": "s1", "container": "iCloud.com.example.clock", "recipient": "_u1",
            "fireDate": .string(fire), "timeZone": .string(zone), "alertBody": "Hello",
        ]
        if let interval { members["repeatInterval"] = .string(interval) }
        let codec = WireCodec()
        return try codec.decode(Schedule.self, from: try codec.encode(JSONValue.object(members)))
    }

    @Test("the gap day fires after the change, every later day at the written time", arguments: [
        ("Europe/Paris", "2026-03-29T02:30:00", ["2026-03-29T01:30:00Z", "2026-03-30T00:30:00Z", "2026-03-31T00:30:00Z"]),
        ("America/New_York", "2026-03-08T02:30:00", ["2026-03-08T07:30:00Z", "2026-03-09T06:30:00Z", "2026-03-10T06:30:00Z"]),
        // 02:15 does not exist on Lord Howe on Oct 4: 02:45 (+11) that day, then 02:15 (+11).
        ("Australia/Lord_Howe", "2026-10-04T02:15:00", ["2026-10-03T15:45:00Z", "2026-10-04T15:15:00Z", "2026-10-05T15:15:00Z"]),
        // Santiago's clocks go from 24:00 to 01:00: 00:30 fires at 01:30 (-03) that day, then 00:30 (-03).
        ("America/Santiago", "2026-09-06T00:30:00", ["2026-09-06T04:30:00Z", "2026-09-07T03:30:00Z", "2026-09-08T03:30:00Z"]),
    ])
    func gapDay(zoneID: String, fire: String, expected: [String]) throws {
        let schedule = try Self.decoded(fire: fire, zone: zoneID)
        #expect(schedule.fireDate.map(Support.iso) == expected.first)
        #expect(Support.next(schedule, after: "2026-01-01T00:00:00Z", count: 3) == expected)
        let zone = Support.zone(zoneID)
        let shown = expected.dropFirst().map { Support.local(Support.at($0), zone).dropFirst(11) }
        #expect(shown.allSatisfy { $0 == fire.dropFirst(11) })
    }

    @Test("a daily 02:30 Paris alarm from the gap day fires once per local day for a year, at 02:30 but on gap days")
    func dailyFullYear() throws {
        let zone = Support.paris
        let schedule = try Self.decoded(fire: "2026-03-29T02:30:00", zone: "Europe/Paris")
        let instants = Recurrence(schedule: schedule, userTimeZone: nil)
            .occurrences(after: Support.at("2026-03-28T00:00:00Z"), count: 365)
        let shown = instants.map { Support.local($0, zone) }
        #expect(Set(shown.map { $0.prefix(10) }).count == 365)
        #expect(shown.first == "2026-03-29T03:30:00" && shown.last == "2027-03-28T03:30:00")
        let late = shown.filter { !$0.hasSuffix("T02:30:00") }
        #expect(late == ["2026-03-29T03:30:00", "2027-03-28T03:30:00"])
    }

    @Test("weekly, monthly and yearly alarms keep the written time; only days that skip it move")
    func longerRepeats() throws {
        let weekly = try Self.decoded(fire: "2026-03-29T02:30:00", zone: "Europe/Paris", every: "week")
        #expect(Support.next(weekly, after: "2026-03-01T00:00:00Z", count: 2) == ["2026-03-29T01:30:00Z", "2026-04-05T00:30:00Z"])
        let monthly = try Self.decoded(fire: "2026-03-29T02:30:00", zone: "Europe/Paris", every: "month")
        #expect(Support.next(monthly, after: "2026-03-01T00:00:00Z", count: 2) == ["2026-03-29T01:30:00Z", "2026-04-29T00:30:00Z"])
        let yearly = try Self.decoded(fire: "2026-03-29T02:30:00", zone: "Europe/Paris", every: "year")
        // 2027-03-29 is an ordinary Monday (the 2027 change is on Mar 28).
        #expect(Support.next(yearly, after: "2026-03-01T00:00:00Z", count: 2) == ["2026-03-29T01:30:00Z", "2027-03-29T00:30:00Z"])
    }

    @Test("an hourly alarm from the gap fires once per hour that exists: 03:30, 04:30…")
    func hourlyFromTheGap() throws {
        let hourly = try Self.decoded(fire: "2026-03-29T02:30:00", zone: "Europe/Paris", every: "hour")
        #expect(Support.next(hourly, after: "2026-03-29T00:00:00Z", count: 3)
            == ["2026-03-29T01:30:00Z", "2026-03-29T02:30:00Z", "2026-03-29T03:30:00Z"])
    }

    @Test("in the fall-back overlap 02:30 occurs twice and fires once, at the first (CEST)")
    func overlap() throws {
        let schedule = try Self.decoded(fire: "2026-10-25T02:30:00", zone: "Europe/Paris")
        #expect(schedule.wallClockFireDate == nil)
        // 00:30Z is 02:30 CEST; the second 02:30 (CET) would be 01:30Z.
        #expect(Support.next(schedule, after: "2026-10-24T00:00:00Z", count: 3)
            == ["2026-10-25T00:30:00Z", "2026-10-26T01:30:00Z", "2026-10-27T01:30:00Z"])
    }

    @Test("a floating gap alarm read in another zone keeps the written time there too")
    func otherZone() throws {
        let schedule = try Self.decoded(fire: "2026-03-29T02:30:00", zone: "Europe/Paris")
        let instants = Recurrence(schedule: schedule, userTimeZone: Support.newYork)
            .occurrences(after: Support.at("2026-03-29T00:00:00Z"), count: 2)
        #expect(instants.map { Support.local($0, Support.newYork) } == ["2026-03-29T02:30:00", "2026-03-30T02:30:00"])
    }

    @Test("the stage state fires the gap alarm at 03:30, then 02:30, across a restart")
    func stageState() throws {
        let codec = WireCodec()
        var state = UserSchedules(recipient: "_u1")
        let schedule = try Self.decoded(fire: "2026-03-29T02:30:00", zone: "Europe/Paris")
        _ = state.apply(
            schedule, at: InputPosition(topic: "schedules", partition: 0, offset: 0), now: Support.at("2026-03-28T12:00:00Z"),
            userZone: nil)
        state = try codec.decode(UserSchedules.self, from: try codec.encode(state))
        let first = state.fireDue(now: Support.at("2026-03-29T01:30:00Z"))
        #expect(first.firings.map { Support.iso($0.fireDate) } == ["2026-03-29T01:30:00Z"])
        state = try codec.decode(UserSchedules.self, from: try codec.encode(state))
        #expect(state.nextDeadline.map(Support.iso) == "2026-03-30T00:30:00Z")
    }

    /// A `schedule-state` value as the code before `wallClockFireDate` wrote it: a daily
    /// Paris 02:30 alarm written the day before the gap, fired once, armed for the gap day.
    static let oldState = #"""
        {"recipient": "_u1", "appliedOffsets": {"schedules#0": 0},
         "schedules": {"iCloud.com.example.clock/_u1/s1": {
           "schedule": {"scheduleID": "s1", "container": "iCloud.com.example.clock", "recipient": "_u1",
                        "fireDate": "2026-03-28T01:30:00Z", "timeZone": "Europe/Paris", "repeatInterval": "day",
                        "alertBody": "Hello"},
           "nextFire": 1774747800000, "lastFiredIndex": 0, "zone": "Europe/Paris"}}}
        """#

    @Test("a state written before the upgrade restores and fires the gap day at 03:30, the next at 02:30")
    func oldFormState() throws {
        var state = try WireCodec().decode(UserSchedules.self, from: Data(Self.oldState.utf8))
        #expect(state.nextDeadline.map(Support.iso) == "2026-03-29T01:30:00Z")
        let gapDay = state.fireDue(now: Support.at("2026-03-29T01:30:00Z"))
        #expect(gapDay.firings.map { Support.iso($0.fireDate) } == ["2026-03-29T01:30:00Z"])
        #expect(state.nextDeadline.map(Support.iso) == "2026-03-30T00:30:00Z")
        let nextDay = state.fireDue(now: Support.at("2026-03-30T00:30:00Z"))
        #expect(nextDay.firings.map { Support.iso($0.fireDate) } == ["2026-03-30T00:30:00Z"])
    }

    @Test("an old record of an alarm written in the gap cannot be told from a 03:30 one: it keeps 03:30")
    func oldFormGapRecord() throws {
        let old = #"""
            {"scheduleID": "s1", "container": "c", "recipient": "_u1", "fireDate": "2026-03-29T01:30:00Z",
             "timeZone": "Europe/Paris", "repeatInterval": "day"}
            """#
        let schedule = try WireCodec().decode(Schedule.self, from: Data(old.utf8))
        #expect(schedule.wallClockFireDate == nil)
        #expect(Support.next(schedule, after: "2026-03-29T02:00:00Z", count: 1) == ["2026-03-30T01:30:00Z"])
    }
}
