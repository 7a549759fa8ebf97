import Foundation
import HeraldModel
import HeraldScheduler
import Testing

@Suite("The 64 pending schedules per user and app")
struct PendingLimitTests {
    static let now = Support.at("2026-06-01T12:00:00Z")

    /// A once-schedule firing `minutes` after `now`.
    static func inMinutes(_ minutes: Int, id: String) -> Schedule {
        var schedule = Support.schedule(id)
        schedule.fireDate = now + Int64(minutes) * 60_000
        return schedule
    }

    static let region = ScheduleRegion(latitude: 48.8584, longitude: 2.2945, radius: 200)

    @Test("the 65th soonest is discarded, whatever the IDs")
    func soonestKept() {
        // IDs run against the fire order, so only the instants can explain the result.
        let schedules = (1...65).map { Self.inMinutes($0, id: "id-\(1000 - $0)") }.shuffled()
        let (kept, discarded) = PendingLimit.partition(schedules, now: Self.now, userTimeZone: nil)
        #expect(PendingLimit.capacity == 64)
        #expect(kept.count == 64)
        #expect(discarded.map(\.scheduleID) == ["id-935"])
        #expect(kept.first?.scheduleID == "id-999")
    }

    @Test("a repeating schedule counts once, by its next occurrence")
    func repeatingCountsOnce() {
        var minutely = Support.schedule("every-minute", fire: "2020-01-01T00:00:00Z", every: .minute)
        minutely.fireDate = Support.at("2020-01-01T00:00:30Z")
        let later = (1...64).map { Self.inMinutes(60 + $0, id: "once-\($0)") }
        let (kept, discarded) = PendingLimit.partition(later + [minutely], now: Self.now, userTimeZone: nil)
        #expect(kept.first?.scheduleID == "every-minute")
        #expect(discarded.map(\.scheduleID) == ["once-64"])
        #expect(PendingLimit.rank(minutely, now: Self.now, userTimeZone: nil).instant == Self.now + 30_000)
    }

    @Test("a past or missing fire date ranks as firing now")
    func pastFiresNow() {
        var past = Support.schedule("z-past")
        past.fireDate = Self.now - 86_400_000
        let none = Support.schedule("z-none")
        let future = (1...63).map { Self.inMinutes($0, id: "a-\($0)") }
        let (kept, discarded) = PendingLimit.partition(future + [past, none], now: Self.now, userTimeZone: nil)
        #expect(kept.prefix(2).map(\.scheduleID) == ["z-none", "z-past"])
        #expect(discarded.map(\.scheduleID) == ["a-63"])
    }

    @Test("ties are broken by scheduleID")
    func ties() {
        let schedules = (0..<65).map { Self.inMinutes(5, id: String(format: "s-%02d", $0)) }.reversed()
        let (kept, discarded) = PendingLimit.partition(Array(schedules), now: Self.now, userTimeZone: nil)
        #expect(kept.map(\.scheduleID) == (0..<64).map { String(format: "s-%02d", $0) })
        #expect(discarded.map(\.scheduleID) == ["s-64"])
    }

    @Test("region schedules rank after every timed one, by ID among themselves")
    func regionsLast() {
        var regions = ["r-b", "r-a"].map { Support.schedule($0, region: Self.region) }
        let timed = (1...63).map { Self.inMinutes(100_000 * $0, id: "t-\($0)") }
        var (kept, discarded) = PendingLimit.partition(regions + timed, now: Self.now, userTimeZone: nil)
        #expect(kept.last?.scheduleID == "r-a")
        #expect(discarded.map(\.scheduleID) == ["r-b"])
        regions.append(Support.schedule("r-c", region: Self.region))
        (kept, discarded) = PendingLimit.partition(regions + timed + [Self.inMinutes(999_999_999, id: "t-far")], now: Self.now, userTimeZone: nil)
        #expect(kept.last?.scheduleID == "t-far")
        #expect(discarded.map(\.scheduleID) == ["r-a", "r-b", "r-c"])
    }

    @Test("ranks compare by instant, then ID, regions last")
    func rankOrder() {
        let ranks = [
            PendingLimit.Rank(instant: nil, scheduleID: "a"), PendingLimit.Rank(instant: 5, scheduleID: "b"),
            PendingLimit.Rank(instant: 5, scheduleID: "a"), PendingLimit.Rank(instant: 9, scheduleID: "0"),
            PendingLimit.Rank(instant: nil, scheduleID: "0"),
        ]
        #expect(ranks.sorted().map { "\($0.instant.map(String.init) ?? "-")\($0.scheduleID)" } == ["5a", "5b", "90", "-0", "-a"])
    }
}
