import Foundation
import HeraldModel
import HeraldScheduler
import Testing

@Suite("Admitting a saved schedule under the 64 limit")
struct ScheduleAdmissionTests {
    static let now = PendingLimitTests.now

    /// A once-schedule firing `minutes` after `now`.
    static func inMinutes(_ minutes: Int, id: String) -> Schedule {
        PendingLimitTests.inMinutes(minutes, id: id)
    }

    /// 64 pending schedules firing 10…73 minutes from now.
    static let full = (10..<74).map { inMinutes($0, id: "p\($0)") }

    @Test("under the limit, the schedule is admitted and nothing is discarded")
    func underTheLimit() {
        let admission = ScheduleAdmission.deciding(Self.inMinutes(5, id: "new"), pending: Array(Self.full.prefix(10)), now: Self.now)
        #expect(admission == ScheduleAdmission(admitted: true, discarded: [], tombstones: []))
    }

    @Test("a sooner schedule displaces the latest pending one, which gets a tombstone")
    func soonerDisplacesLatest() {
        let admission = ScheduleAdmission.deciding(Self.inMinutes(5, id: "new"), pending: Self.full, now: Self.now)
        #expect(admission.admitted)
        #expect(admission.discarded.map(\.scheduleID) == ["p73"])
        #expect(admission.tombstones.map(\.scheduleID) == ["p73"])
    }

    @Test("a later schedule is discarded on arrival; nothing pending is deleted")
    func laterIsDiscarded() {
        let new = Self.inMinutes(200, id: "new")
        let admission = ScheduleAdmission.deciding(new, pending: Self.full, now: Self.now)
        #expect(!admission.admitted)
        #expect(admission.discarded == [new])
        #expect(admission.tombstones.isEmpty)
    }

    @Test("a replacement discarded on arrival takes the version it replaces with it")
    func discardedReplacementDeletesTheOld() {
        var pending = Self.full
        let old = Self.inMinutes(1, id: "mine")
        pending[0] = old  // p10 leaves; "mine" fires first
        pending.append(Self.inMinutes(9, id: "p9"))  // 65 pending: the limit is already reached
        let moved = Self.inMinutes(500, id: "mine")
        let admission = ScheduleAdmission.deciding(moved, pending: pending, now: Self.now)
        #expect(!admission.admitted)
        #expect(admission.discarded.map(\.scheduleID) == ["mine"])
        #expect(admission.tombstones == [old])
    }

    @Test("a replacement does not count twice: 64 with its old version stay within the limit")
    func replacementCountsOnce() {
        let admission = ScheduleAdmission.deciding(Self.inMinutes(300, id: "p40"), pending: Self.full, now: Self.now)
        #expect(admission == ScheduleAdmission(admitted: true, discarded: [], tombstones: []))
    }

    @Test("a region schedule ranks after every timed one")
    func regionRanksLast() {
        var region = Support.schedule("fence", region: ScheduleRegion(latitude: 48.8584, longitude: 2.2945, radius: 200))
        region.fireDate = nil
        let admission = ScheduleAdmission.deciding(region, pending: Self.full, now: Self.now)
        #expect(!admission.admitted)
        #expect(admission.discarded.map(\.scheduleID) == ["fence"])
    }

    @Test("a repeating schedule whose first date has passed ranks by its next repeat")
    func repeatingRanksByNextRepeat() {
        // Hourly from yesterday 11:30: its next repeat, 12:30, ranks among the pending ones.
        var hourly = Support.schedule("hourly", fire: "2026-05-31T11:30:00Z", every: .hour, createdAt: Self.now - 86_400_000)
        hourly.alertBody = "tick"
        let admission = ScheduleAdmission.deciding(hourly, pending: Self.full, now: Self.now)
        #expect(admission.admitted)
        #expect(admission.discarded.map(\.scheduleID) == ["p73"])
        #expect(PendingLimit.rank(hourly, now: Self.now, userTimeZone: nil).instant == Support.at("2026-06-01T12:30:00Z"))
    }

    @Test("a schedule must show or do something: a body, a title, a sound or a badge number")
    func contentRequired() {
        var silent = Support.schedule("silent")
        silent.alertBody = nil
        silent.alertTitle = ""
        silent.userInfo = ["k": .string("v")]
        silent.category = "REMINDER"
        #expect(ScheduleAdmission.contentProblem(of: silent)?.hasPrefix("alertBody: required unless") == true)
        var titled = silent
        titled.alertTitle = "Title"
        var sounding = silent
        sounding.soundName = "chime.caf"
        var badged = silent
        badged.applicationIconBadgeNumber = 0
        for schedule in [Support.schedule("bodied"), titled, sounding, badged] {
            #expect(ScheduleAdmission.contentProblem(of: schedule) == nil)
        }
    }
}
