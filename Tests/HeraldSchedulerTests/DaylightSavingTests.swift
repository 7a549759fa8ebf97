import Foundation
import HeraldModel
import HeraldScheduler
import Testing

/// 2026 changes: Europe/Paris springs forward 02:00 → 03:00 on Mar 29 and falls back
/// 03:00 → 02:00 on Oct 25; America/New_York springs forward 02:00 → 03:00 on Mar 8 and
/// falls back 02:00 → 01:00 on Nov 1.
@Suite("Floating schedules across daylight-saving changes, and following the user")
struct DaylightSavingTests {
    @Test("a daily alarm fires exactly once on every local day of the year", arguments: [
        ("Europe/Paris", "00:30"), ("Europe/Paris", "01:30"), ("Europe/Paris", "02:00"), ("Europe/Paris", "02:30"),
        ("Europe/Paris", "03:00"), ("Europe/Paris", "08:00"), ("Europe/Paris", "23:59"),
        ("America/New_York", "00:30"), ("America/New_York", "01:00"), ("America/New_York", "01:30"),
        ("America/New_York", "02:30"), ("America/New_York", "03:30"), ("America/New_York", "23:30"),
    ])
    func dailyAllYear(zoneID: String, time: String) {
        let zone = Support.zone(zoneID)
        let schedule = Support.schedule(fire: "2026-01-01T\(time):00", zone: zoneID, every: .day)
        let instants = Recurrence(schedule: schedule, userTimeZone: nil)
            .occurrences(after: Support.at("2025-12-31T00:00:00Z"), count: 365)
        let days = instants.map { String(Support.local($0, zone).prefix(10)) }
        #expect(Set(days).count == 365)
        #expect(days.first == "2026-01-01" && days.last == "2026-12-31")
        for instant in instants {
            let shown = String(Support.local(instant, zone).dropFirst(11).prefix(5))
            // Only a time the spring-forward change skips shows an hour later.
            if shown != time {
                #expect(["2026-03-29", "2026-03-08"].contains(Support.local(instant, zone).prefix(10)))
                #expect(shown == String(format: "%02d", Int(time.prefix(2))! + 1) + time.dropFirst(2))
            }
        }
        #expect(zip(instants, instants.dropFirst()).allSatisfy { $1 - $0 >= 23 * 3_600_000 && $1 - $0 <= 25 * 3_600_000 })
    }

    @Test("a daily 02:30 alarm in the gap fires at 03:30; in the overlap, at the first 02:30", arguments: [
        ("Europe/Paris", "2026-03-28T02:30:00", ["2026-03-28T01:30:00Z", "2026-03-29T01:30:00Z", "2026-03-30T00:30:00Z"]),
        ("Europe/Paris", "2026-10-24T02:30:00", ["2026-10-24T00:30:00Z", "2026-10-25T00:30:00Z", "2026-10-26T01:30:00Z"]),
        ("America/New_York", "2026-03-07T02:30:00", ["2026-03-07T07:30:00Z", "2026-03-08T07:30:00Z", "2026-03-09T06:30:00Z"]),
        ("America/New_York", "2026-10-31T01:30:00", ["2026-10-31T05:30:00Z", "2026-11-01T05:30:00Z", "2026-11-02T06:30:00Z"]),
    ])
    func dailyAcrossChanges(zoneID: String, fire: String, expected: [String]) {
        let schedule = Support.schedule(fire: fire, zone: zoneID, every: .day)
        #expect(Support.next(schedule, after: "2026-01-01T00:00:00Z", count: 3) == expected)
    }

    @Test("an hourly floating schedule fires once per wall-clock hour: none doubled, none skipped", arguments: [
        // Spring forward: 02:30 does not exist and becomes 03:30, which fires once.
        ("Europe/Paris", "2026-03-29T00:30:00", "2026-03-28T23:00:00Z",
         ["2026-03-28T23:30:00Z", "2026-03-29T00:30:00Z", "2026-03-29T01:30:00Z", "2026-03-29T02:30:00Z"]),
        // Fall back: 02:30 occurs twice and fires at the first; 03:30 follows.
        ("Europe/Paris", "2026-10-25T00:30:00", "2026-10-24T22:00:00Z",
         ["2026-10-24T22:30:00Z", "2026-10-24T23:30:00Z", "2026-10-25T00:30:00Z", "2026-10-25T02:30:00Z"]),
        ("America/New_York", "2026-03-08T00:30:00", "2026-03-08T05:00:00Z",
         ["2026-03-08T05:30:00Z", "2026-03-08T06:30:00Z", "2026-03-08T07:30:00Z", "2026-03-08T08:30:00Z"]),
        ("America/New_York", "2026-11-01T00:30:00", "2026-11-01T04:00:00Z",
         ["2026-11-01T04:30:00Z", "2026-11-01T05:30:00Z", "2026-11-01T07:30:00Z", "2026-11-01T08:30:00Z"]),
    ])
    func hourly(zoneID: String, fire: String, after: String, expected: [String]) {
        let schedule = Support.schedule(fire: fire, zone: zoneID, every: .hour)
        #expect(Support.next(schedule, after: after, count: 4) == expected)
        let zone = Support.zone(zoneID)
        let shown = expected.map { Support.local(Support.at($0), zone).dropFirst(11).prefix(5) }
        #expect(Set(shown).count == 4)
    }

    @Test("a weekly floating schedule keeps its wall-clock time across the changes", arguments: [
        ("Europe/Paris", "2026-03-22T02:30:00", ["2026-03-22T01:30:00Z", "2026-03-29T01:30:00Z", "2026-04-05T00:30:00Z"]),
        ("Europe/Paris", "2026-10-18T02:30:00", ["2026-10-18T00:30:00Z", "2026-10-25T00:30:00Z", "2026-11-01T01:30:00Z"]),
        ("America/New_York", "2026-03-01T02:30:00", ["2026-03-01T07:30:00Z", "2026-03-08T07:30:00Z", "2026-03-15T06:30:00Z"]),
        ("America/New_York", "2026-10-25T01:30:00", ["2026-10-25T05:30:00Z", "2026-11-01T05:30:00Z", "2026-11-08T06:30:00Z"]),
    ])
    func weekly(zoneID: String, fire: String, expected: [String]) {
        let schedule = Support.schedule(fire: fire, zone: zoneID, every: .week)
        #expect(Support.next(schedule, after: "2026-01-01T00:00:00Z", count: 3) == expected)
    }

    @Test("an absolute daily schedule keeps its UTC time across the changes")
    func absoluteIgnoresChanges() {
        let schedule = Support.schedule(fire: "2026-03-28T07:00:00Z", every: .day)
        let after = "2026-03-27T00:00:00Z"
        #expect(Support.next(schedule, after: after, count: 3) == ["2026-03-28T07:00:00Z", "2026-03-29T07:00:00Z", "2026-03-30T07:00:00Z"])
        #expect(Support.next(schedule, after: after, count: 3, userZone: Support.newYork) == Support.next(schedule, after: after, count: 3))
    }

    @Test("a floating 08:00 alarm follows the user from Paris to New York; an absolute one does not")
    func followsTheUser() {
        let floating = Support.schedule(fire: "2026-06-01T08:00:00", zone: "Europe/Paris", every: .day)
        #expect(Support.next(floating, after: "2026-06-01T00:00:00Z", count: 2) == ["2026-06-01T06:00:00Z", "2026-06-02T06:00:00Z"])
        #expect(Support.next(floating, after: "2026-06-01T00:00:00Z", count: 2, userZone: Support.newYork)
            == ["2026-06-01T12:00:00Z", "2026-06-02T12:00:00Z"])
        let absolute = Support.schedule(fire: "2026-06-01T06:00:00Z", every: .day)
        #expect(Support.next(absolute, after: "2026-06-01T00:00:00Z", count: 2, userZone: Support.newYork)
            == ["2026-06-01T06:00:00Z", "2026-06-02T06:00:00Z"])
    }

    @Test("a floating alarm read in a zone with different change dates still fires daily")
    func zoneWithOtherChanges() {
        // Created in Paris, read in New York: New York's change (Mar 8) applies, not Paris's (Mar 29).
        let floating = Support.schedule(fire: "2026-03-01T02:30:00", zone: "Europe/Paris", every: .day)
        let instants = Recurrence(schedule: floating, userTimeZone: Support.newYork)
            .occurrences(after: Support.at("2026-03-06T00:00:00Z"), count: 5)
        #expect(instants.map { Support.local($0, Support.newYork) } == [
            "2026-03-06T02:30:00", "2026-03-07T02:30:00", "2026-03-08T03:30:00", "2026-03-09T02:30:00", "2026-03-10T02:30:00",
        ])
    }

    @Test("a floating minute repeat over the gap fires each instant once, in order")
    func minutesOverTheGap() {
        let schedule = Support.schedule(fire: "2026-03-29T01:00:00", zone: "Europe/Paris", every: .minute)
        let instants = Recurrence(schedule: schedule, userTimeZone: nil).occurrences(after: Support.at("2026-03-29T00:00:00Z"), count: 240)
        #expect(zip(instants, instants.dropFirst()).allSatisfy { $1 - $0 == 60_000 })
        #expect(instants.first.map(Support.iso) == "2026-03-29T00:01:00Z")
    }

    @Test("a daily alarm across the day Samoa skipped (2011-12-30) fires once, on Dec 31")
    func skippedDay() {
        let apia = Support.zone("Pacific/Apia")
        let schedule = Support.schedule(fire: "2011-12-28T10:00:00", zone: "Pacific/Apia", every: .day)
        let instants = Recurrence(schedule: schedule, userTimeZone: nil).occurrences(after: Support.at("2011-12-28T00:00:00Z"), count: 4)
        #expect(instants.map { Support.local($0, apia) } == [
            "2011-12-28T10:00:00", "2011-12-29T10:00:00", "2011-12-31T10:00:00", "2012-01-01T10:00:00",
        ])
    }
}
