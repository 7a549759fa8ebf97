import Foundation
import HeraldModel
import HeraldScheduler
import Testing

@Suite("Recurrence: occurrences of absolute schedules, month ends, leap years, calendars")
struct RecurrenceTests {
    @Test("every repeat interval, from Jan 31", arguments: [
        (RepeatInterval.minute, ["2026-01-31T10:15:00Z", "2026-01-31T10:16:00Z", "2026-01-31T10:17:00Z", "2026-01-31T10:18:00Z"]),
        (.hour, ["2026-01-31T10:15:00Z", "2026-01-31T11:15:00Z", "2026-01-31T12:15:00Z", "2026-01-31T13:15:00Z"]),
        (.day, ["2026-01-31T10:15:00Z", "2026-02-01T10:15:00Z", "2026-02-02T10:15:00Z", "2026-02-03T10:15:00Z"]),
        // weekday adds one day, as Foundation and UILocalNotification do: Saturday, Sunday, Monday…
        (.weekday, ["2026-01-31T10:15:00Z", "2026-02-01T10:15:00Z", "2026-02-02T10:15:00Z", "2026-02-03T10:15:00Z"]),
        (.week, ["2026-01-31T10:15:00Z", "2026-02-07T10:15:00Z", "2026-02-14T10:15:00Z", "2026-02-21T10:15:00Z"]),
        (.month, ["2026-01-31T10:15:00Z", "2026-02-28T10:15:00Z", "2026-03-31T10:15:00Z", "2026-04-30T10:15:00Z"]),
        (.quarter, ["2026-01-31T10:15:00Z", "2026-04-30T10:15:00Z", "2026-07-31T10:15:00Z", "2026-10-31T10:15:00Z"]),
        (.year, ["2026-01-31T10:15:00Z", "2027-01-31T10:15:00Z", "2028-01-31T10:15:00Z", "2029-01-31T10:15:00Z"]),
    ])
    func intervals(interval: RepeatInterval, expected: [String]) {
        let schedule = Support.schedule(fire: "2026-01-31T10:15:00Z", every: interval)
        #expect(Support.next(schedule, after: "2026-01-31T10:14:59.999Z", count: 4) == expected)
        let recurrence = Recurrence(schedule: schedule, userTimeZone: Support.paris)
        #expect((0..<4).compactMap(recurrence.occurrence).map(Support.iso) == expected)
    }

    @Test("monthly from Jan 31 counts from the fire date: Feb 28/29, Mar 31, Apr 30")
    func monthEnds() {
        let recurrence = Recurrence(schedule: Support.schedule(fire: "2026-01-31T08:00:00Z", every: .month), userTimeZone: nil)
        let days = (0..<26).compactMap(recurrence.occurrence).map { String(Support.iso($0).prefix(10)) }
        #expect(days.prefix(13) == [
            "2026-01-31", "2026-02-28", "2026-03-31", "2026-04-30", "2026-05-31", "2026-06-30", "2026-07-31",
            "2026-08-31", "2026-09-30", "2026-10-31", "2026-11-30", "2026-12-31", "2027-01-31",
        ])
        #expect(days[25] == "2028-02-29")
        #expect(recurrence.next(after: Support.at("2026-02-28T08:00:00Z")).map(Support.iso) == "2026-03-31T08:00:00Z")
    }

    @Test("yearly from Feb 29 fires Feb 28 in common years and Feb 29 in leap years, over 8 years")
    func leapYears() {
        let schedule = Support.schedule(fire: "2024-02-29T09:00:00Z", every: .year)
        #expect(Support.next(schedule, after: "2024-03-01T00:00:00Z", count: 8) == [
            "2025-02-28T09:00:00Z", "2026-02-28T09:00:00Z", "2027-02-28T09:00:00Z", "2028-02-29T09:00:00Z",
            "2029-02-28T09:00:00Z", "2030-02-28T09:00:00Z", "2031-02-28T09:00:00Z", "2032-02-29T09:00:00Z",
        ])
        let century = Recurrence(schedule: Support.schedule(fire: "2096-02-29T00:00:00Z", every: .year), userTimeZone: nil)
        #expect(century.occurrence(4).map(Support.iso) == "2100-02-28T00:00:00Z")
        #expect(century.occurrence(8).map(Support.iso) == "2104-02-29T00:00:00Z")
    }

    @Test("quarterly from Nov 30 keeps clamping to each quarter's month")
    func quarters() {
        let schedule = Support.schedule(fire: "2025-11-30T12:00:00Z", every: .quarter)
        #expect(Support.next(schedule, after: "2025-11-01T00:00:00Z", count: 5) == [
            "2025-11-30T12:00:00Z", "2026-02-28T12:00:00Z", "2026-05-30T12:00:00Z", "2026-08-30T12:00:00Z",
            "2026-11-30T12:00:00Z",
        ])
    }

    @Test("a once-schedule has its fire date only, and only when it is after")
    func once() {
        let schedule = Support.schedule(fire: "2026-05-01T12:00:00Z")
        let recurrence = Recurrence(schedule: schedule, userTimeZone: nil)
        #expect(recurrence.next(after: Support.at("2026-05-01T11:59:59.999Z")) == Support.at("2026-05-01T12:00:00Z"))
        #expect(recurrence.next(after: Support.at("2026-05-01T12:00:00Z")) == nil)
        #expect(recurrence.occurrence(1) == nil)
        #expect(recurrence.occurrence(-1) == nil)
        #expect(Support.next(schedule, after: "2020-01-01T00:00:00Z", count: 10) == ["2026-05-01T12:00:00Z"])
        #expect(Recurrence(schedule: Support.schedule(), userTimeZone: nil).next(after: 0) == nil)
    }

    @Test("next(after:) is strictly after, and before the fire date gives the fire date")
    func strictlyAfter() {
        let recurrence = Recurrence(schedule: Support.schedule(fire: "2026-01-31T10:15:00Z", every: .month), userTimeZone: nil)
        for k in 0..<30 {
            let instant = recurrence.occurrence(k)!
            #expect(recurrence.next(after: instant) == recurrence.occurrence(k + 1))
            #expect(recurrence.next(after: instant - 1) == instant)
        }
        #expect(recurrence.next(after: 0) == recurrence.occurrence(0))
    }

    @Test("a minute repeat from five years back finds the next minute directly", .timeLimit(.minutes(5)))
    func minuteRepeatYearsBack() {
        let schedule = Support.schedule(fire: "2021-03-01T00:00:30Z", every: .minute)
        #expect(Support.next(schedule, after: "2026-03-29T12:34:56Z", count: 2) == ["2026-03-29T12:35:30Z", "2026-03-29T12:36:30Z"])
        #expect(Support.next(schedule, after: "2026-03-29T12:35:30Z", count: 1) == ["2026-03-29T12:36:30Z"])
        let recurrence = Recurrence(schedule: schedule, userTimeZone: nil)
        let latest = recurrence.latestOccurrence(atOrBefore: Support.at("2026-03-29T12:34:56Z"))
        #expect(latest.map { Support.iso($0.instant) } == "2026-03-29T12:34:30Z")
        #expect(latest.map { recurrence.occurrence($0.index) } == latest?.instant)
        // Floating, across the Paris spring-forward change, still from 2021.
        let floating = Support.schedule(fire: "2021-03-01T00:00:30", zone: "Europe/Paris", every: .minute)
        #expect(Support.next(floating, after: "2026-03-29T00:59:45Z", count: 3)
            == ["2026-03-29T01:00:30Z", "2026-03-29T01:01:30Z", "2026-03-29T01:02:30Z"])
        // Ten thousand searches over many years stay correct.
        for hours in stride(from: 0, to: 10_000 * 7, by: 7) {
            let after = Support.at("2026-01-01T00:00:00Z") + Int64(hours) * 3_600_000 + 17
            #expect(recurrence.next(after: after) == after - 17 + 30_000)
        }
    }

    @Test("monthly from far back, and past year 9999 there is nothing")
    func farRanges() {
        let recurrence = Recurrence(schedule: Support.schedule(fire: "1970-01-31T00:00:00Z", every: .month), userTimeZone: nil)
        #expect(recurrence.next(after: Support.at("2026-02-01T00:00:00Z")).map(Support.iso) == "2026-02-28T00:00:00Z")
        #expect(recurrence.next(after: Support.at("9999-12-31T00:00:00Z")) == nil)
        let minutes = Recurrence(schedule: Support.schedule(fire: "1970-01-01T00:00:00Z", every: .minute), userTimeZone: nil)
        #expect(minutes.next(after: ISO8601Instant.latest) == nil)
        #expect(minutes.occurrence(Int.max) == nil)
        #expect(minutes.next(after: .max) == nil && minutes.next(after: .min) == 0)
        #expect(minutes.latestOccurrence(atOrBefore: .max)?.instant == ISO8601Instant.latest - 59_999)
        #expect(minutes.latestOccurrence(atOrBefore: .min) == nil)
    }

    @Test("Buddhist, Japanese and ISO 8601 calendars repeat like the Gregorian one")
    func gregorianLike() {
        for calendar in ["buddhist", "japanese", "iso8601", "republicOfChina"] {
            let schedule = Support.schedule(fire: "2026-01-31T10:15:00Z", every: .month, calendar: calendar)
            #expect(Support.next(schedule, after: "2026-02-01T00:00:00Z", count: 2) == ["2026-02-28T10:15:00Z", "2026-03-31T10:15:00Z"])
        }
    }

    @Test("monthly in lunar calendars keeps the day of the month", arguments: [
        RepeatCalendar.hebrew, .islamic, .islamicUmmAlQura, .chinese,
    ])
    func lunarMonths(calendar: RepeatCalendar) {
        let schedule = Support.schedule(fire: "2026-01-31T10:15:00Z", every: .month, calendar: calendar.rawValue)
        let recurrence = Recurrence(schedule: schedule, userTimeZone: nil)
        let instants = (0..<30).compactMap(recurrence.occurrence)
        #expect(instants.count == 30)
        let foundation = calendar.utcCalendar
        let start = foundation.dateComponents([.day], from: Date(timeIntervalSince1970: Double(instants[0]) / 1000)).day
        for (previous, instant) in zip(instants, instants.dropFirst()) {
            let date = Date(timeIntervalSince1970: Double(instant) / 1000)
            #expect(foundation.dateComponents([.day], from: date).day == start)
            #expect([29, 30].contains((instant - previous) / 86_400_000))
            #expect(Support.iso(instant).hasSuffix("T10:15:00Z"))
        }
        #expect(recurrence.next(after: instants[17]) == instants[18])
    }

    @Test("yearly in the Hebrew calendar lands on the same Hebrew date")
    func hebrewYears() {
        // 13 Shevat 5786 = 2026-01-31; 5787 = 2027-01-21; 5788 = 2028-02-10 (5787 has 13 months:
        // adding 24 months instead of 2 years would land on 13 Tevet, 2028-01-12).
        let schedule = Support.schedule(fire: "2026-01-31T10:15:00Z", every: .year, calendar: "hebrew")
        #expect(Support.next(schedule, after: "2026-02-01T00:00:00Z", count: 2) == ["2027-01-21T10:15:00Z", "2028-02-10T10:15:00Z"])
    }
}
