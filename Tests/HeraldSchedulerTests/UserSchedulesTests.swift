import Foundation
import HeraldModel
import HeraldScheduler
import Testing

@Suite("UserSchedules: arming, firing, replays, time-zone changes, restarts")
struct UserSchedulesTests {
    static func position(_ offset: Int64, _ topic: String = "schedules", partition: Int32 = 0) -> InputPosition {
        InputPosition(topic: topic, partition: partition, offset: offset)
    }

    static func firing(_ schedule: Schedule, _ instant: String, _ trigger: ScheduledFiring.Trigger) -> ScheduledFiring {
        ScheduledFiring(schedule: schedule, fireDate: Support.at(instant), trigger: trigger)
    }

    @Test("an input at an offset already applied is skipped")
    func replays() {
        var state = UserSchedules(recipient: "_u1")
        let schedule = Support.schedule(fire: "2026-06-02T09:00:00Z")
        #expect(!state.apply(schedule, at: Self.position(5), now: Support.at("2026-06-01T00:00:00Z"), userZone: nil).isReplay)
        let armed = state
        var changed = schedule
        changed.fireDate = Support.at("2026-06-03T09:00:00Z")
        #expect(state.apply(changed, at: Self.position(5), now: 0, userZone: nil) == .replay)
        #expect(state.apply(changed, at: Self.position(4), now: 0, userZone: nil) == .replay)
        let removedOld = state.remove(schedule.partitionKey, at: Self.position(3))
        #expect(!removedOld)
        #expect(state == armed)
        #expect(!state.apply(changed, at: Self.position(1, partition: 1), now: 0, userZone: nil).isReplay)
        #expect(state.appliedOffsets == ["schedules#0": 5, "schedules#1": 1])
        #expect(state.nextDeadline == Support.at("2026-06-03T09:00:00Z"))
        let removed = state.remove(schedule.partitionKey, at: Self.position(6))
        #expect(removed)
        #expect(state.schedules.isEmpty && state.nextDeadline == nil)
    }

    @Test("a past once-schedule fires immediately with a deterministic ID, and is finished")
    func pastOnce() {
        let schedule = Support.schedule(fire: "2026-06-01T08:00:00Z")
        for _ in 0..<2 {
            var state = UserSchedules(recipient: "_u1")
            let outcome = state.apply(schedule, at: Self.position(0), now: Support.at("2026-06-01T09:00:00Z"), userZone: nil)
            #expect(outcome.firings == [Self.firing(schedule, "2026-06-01T08:00:00Z", .immediate)])
            #expect(outcome.firings.first?.firingID == ScheduledFiring.firingID(
                container: "iCloud.com.example.clock", recipient: "_u1", scheduleID: "s1", instant: Support.at("2026-06-01T08:00:00Z")))
            #expect(outcome.finished == [schedule.partitionKey])
            #expect(state.schedules.isEmpty)
        }
    }

    @Test("a past repeating schedule fires its latest occurrence now, then is armed for the next")
    func pastRepeating() {
        var state = UserSchedules(recipient: "_u1")
        let schedule = Support.schedule(fire: "2026-06-01T09:00:00Z", every: .day)
        let outcome = state.apply(schedule, at: Self.position(0), now: Support.at("2026-06-04T21:00:00Z"), userZone: nil)
        #expect(outcome.firings == [Self.firing(schedule, "2026-06-04T09:00:00Z", .immediate)])
        #expect(outcome.finished.isEmpty)
        #expect(state.nextDeadline == Support.at("2026-06-05T09:00:00Z"))
        #expect(state.fireDue(now: Support.at("2026-06-04T23:00:00Z")).isEmpty)
    }

    @Test("without a fire date it fires at createdAt, else the fallback, else now")
    func immediate() {
        let now = Support.at("2026-06-01T12:00:00Z")
        for (createdAt, receivedAt, expected) in [(Int64?(5_000), Int64?(7_000), Int64(5_000)), (nil, 7_000, 7_000), (nil, nil, now)] {
            var state = UserSchedules(recipient: "_u1")
            let schedule = Support.schedule(every: .day, createdAt: createdAt)
            let outcome = state.apply(schedule, at: Self.position(0), now: now, userZone: nil, receivedAt: receivedAt)
            #expect(outcome.firings == [ScheduledFiring(schedule: schedule, fireDate: expected, trigger: .immediate)])
            #expect(outcome.finished == [schedule.partitionKey] && state.schedules.isEmpty)
        }
    }

    @Test("fireDue fires a once-schedule exactly once, then it is finished")
    func onceExactlyOnce() {
        var state = UserSchedules(recipient: "_u1")
        let schedule = Support.schedule(fire: "2026-06-01T09:00:00Z")
        #expect(state.apply(schedule, at: Self.position(0), now: Support.at("2026-06-01T08:00:00Z"), userZone: nil).isEmpty)
        #expect(state.fireDue(now: Support.at("2026-06-01T08:59:59.999Z")).isEmpty)
        let due = state.fireDue(now: Support.at("2026-06-01T09:00:00Z"))
        #expect(due.firings == [Self.firing(schedule, "2026-06-01T09:00:00Z", .date)])
        #expect(due.finished == [schedule.partitionKey])
        #expect(state.fireDue(now: Support.at("2026-06-01T09:00:00Z")).isEmpty)
        #expect(state.fireDue(now: Support.at("2026-06-02T09:00:00Z")).isEmpty)
    }

    @Test("ticking a virtual clock fires every hourly occurrence exactly once, across a DST change")
    func hourlyTicks() {
        var state = UserSchedules(recipient: "_u1")
        let schedule = Support.schedule(fire: "2026-03-28T00:30:00", zone: "Europe/Paris", every: .hour)
        var now = Support.at("2026-03-28T00:00:00Z")
        _ = state.apply(schedule, at: Self.position(0), now: now, userZone: nil)
        var fired: [ScheduledFiring] = []
        while now < Support.at("2026-03-31T00:00:00Z") {
            now += 7 * 60_000
            fired += state.fireDue(now: now).firings
        }
        let expected = Recurrence(schedule: schedule, userTimeZone: nil)
            .occurrences(after: Support.at("2026-03-28T00:00:00Z"), count: 200).filter { $0 <= now }
        #expect(fired.map(\.fireDate) == expected)
        #expect(Set(fired.map(\.firingID)).count == fired.count)
        #expect(fired.allSatisfy { $0.trigger == .date })
        // One per elapsed hour: the wall-clock 02:30 Paris skips moves to 03:30 and fires once there.
        #expect(fired.count == 72)
    }

    @Test("after downtime only the latest missed occurrence fires, then the next is armed")
    func missedOccurrences() {
        var state = UserSchedules(recipient: "_u1")
        let schedule = Support.schedule(fire: "2026-06-01T09:00:00Z", every: .day)
        _ = state.apply(schedule, at: Self.position(0), now: Support.at("2026-06-01T08:00:00Z"), userZone: nil)
        let outcome = state.fireDue(now: Support.at("2026-06-04T21:00:00Z"))
        #expect(outcome.firings == [Self.firing(schedule, "2026-06-04T09:00:00Z", .date)])
        #expect(state.nextDeadline == Support.at("2026-06-05T09:00:00Z"))
        #expect(state.schedules[schedule.partitionKey]?.lastFiredIndex == 3)
    }

    @Test("moving west after the alarm fired does not fire it again the same day")
    func westAfterFiring() {
        var state = UserSchedules(recipient: "_u1")
        let schedule = Support.schedule(fire: "2026-06-01T08:00:00", zone: "Europe/Paris", every: .day)
        _ = state.apply(schedule, at: Self.position(0), now: Support.at("2026-06-01T00:00:00Z"), userZone: Support.paris)
        #expect(state.fireDue(now: Support.at("2026-06-01T06:00:00Z")).firings == [Self.firing(schedule, "2026-06-01T06:00:00Z", .date)])
        #expect(state.timeZoneChanged(to: Support.newYork, now: Support.at("2026-06-01T10:00:00Z")).isEmpty)
        #expect(state.nextDeadline == Support.at("2026-06-02T12:00:00Z"))
        #expect(state.fireDue(now: Support.at("2026-06-01T12:00:00Z")).isEmpty)
        #expect(state.schedules[schedule.partitionKey]?.zone == "America/New_York")
    }

    @Test("moving west before the alarm fires delays it to 08:00 in the new zone")
    func westBeforeFiring() {
        var state = UserSchedules(recipient: "_u1")
        let schedule = Support.schedule(fire: "2026-06-01T08:00:00", zone: "Europe/Paris", every: .day)
        _ = state.apply(schedule, at: Self.position(0), now: Support.at("2026-06-01T00:00:00Z"), userZone: Support.paris)
        state.timeZoneChanged(to: Support.newYork, now: Support.at("2026-06-01T05:00:00Z"))
        #expect(state.nextDeadline == Support.at("2026-06-01T12:00:00Z"))
    }

    @Test("moving east past an occurrence skips it rather than firing late; a once alarm is finished")
    func eastSkips() {
        var state = UserSchedules(recipient: "_u1")
        let daily = Support.schedule("daily", fire: "2026-06-01T08:00:00", zone: "America/New_York", every: .day)
        let once = Support.schedule("once", fire: "2026-06-01T08:00:00", zone: "America/New_York")
        let start = Support.at("2026-06-01T00:00:00Z")
        _ = state.apply(daily, at: Self.position(0), now: start, userZone: Support.newYork)
        _ = state.apply(once, at: Self.position(1), now: start, userZone: Support.newYork)
        let now = Support.at("2026-06-01T11:00:00Z")  // 07:00 in New York, 13:00 in Paris
        let outcome = state.timeZoneChanged(to: Support.paris, now: now)
        #expect(outcome.firings.isEmpty)
        #expect(outcome.finished == [once.partitionKey])
        #expect(state.nextDeadline == Support.at("2026-06-02T06:00:00Z"))
        #expect(state.fireDue(now: Support.at("2026-06-01T12:00:00Z")).isEmpty)
        // An absolute schedule does not move; a change to the same zone changes nothing.
        let before = state
        state.timeZoneChanged(to: Support.paris, now: now)
        #expect(state == before)
    }

    @Test("applying a 65th schedule discards the one that fires last in that container")
    func limitOnApply() {
        var state = UserSchedules(recipient: "_u1")
        let now = Support.at("2026-06-01T00:00:00Z")
        for index in 1...64 {
            var schedule = Support.schedule("s-\(index)")
            schedule.fireDate = now + Int64(index) * 60_000
            #expect(state.apply(schedule, at: Self.position(Int64(index)), now: now, userZone: nil).discarded.isEmpty)
        }
        var other = Support.schedule("elsewhere", container: "iCloud.other")
        other.fireDate = now + 1
        #expect(state.apply(other, at: Self.position(100), now: now, userZone: nil).discarded.isEmpty)
        var soon = Support.schedule("soon")
        soon.fireDate = now + 30_000
        let outcome = state.apply(soon, at: Self.position(101), now: now, userZone: nil)
        #expect(outcome.discarded == ["iCloud.com.example.clock/_u1/s-64"])
        #expect(state.schedules.count == 65)
        var late = Support.schedule("late")
        late.fireDate = now + 86_400_000
        #expect(state.apply(late, at: Self.position(102), now: now, userZone: nil).discarded == [late.partitionKey])
    }

    @Test("a schedule or location for another user is ignored")
    func otherRecipient() {
        var state = UserSchedules(recipient: "_u1")
        let outcome = state.apply(Support.schedule(recipient: "_u2"), at: Self.position(0), now: 0, userZone: nil)
        #expect(outcome.isEmpty && !outcome.isReplay && state.schedules.isEmpty)
        #expect(state.appliedOffsets.contains(Self.position(0)))
    }

    // MARK: - Restart

    enum Event {
        case schedule(Schedule)
        case tombstone(String)
        case location(DeviceLocation)
        case tick(String)
        case zone(TimeZone?, String)
    }

    static let tower = ScheduleRegion(latitude: 48.8584, longitude: 2.2945, radius: 200)

    static let script: [Event] = [
        .schedule(Support.schedule("alarm", fire: "2026-06-01T08:00:00", zone: "Europe/Paris", every: .day)),
        .schedule(Support.schedule("countdown", fire: "2026-06-01T10:00:00Z")),
        .schedule(Support.schedule("hourly", fire: "2026-05-01T00:15:00Z", every: .hour)),
        .schedule(Support.schedule("tower", region: tower, regionTriggersOnce: false)),
        .schedule(Support.schedule("now", createdAt: Support.at("2026-06-01T00:00:01Z"))),
        .tick("2026-06-01T06:30:00Z"),
        .location(RegionTests.location(RegionTests.outside, at: 0)),
        .tick("2026-06-01T09:59:00Z"),
        .zone(Support.newYork, "2026-06-01T10:30:00Z"),
        .location(RegionTests.location(RegionTests.inside, at: 60)),
        .tick("2026-06-01T14:00:00Z"),
        .tombstone("iCloud.com.example.clock/_u1/hourly"),
        .location(RegionTests.location(RegionTests.outside, at: 120)),
        .tick("2026-06-03T14:00:00Z"),
        .zone(nil, "2026-06-03T15:00:00Z"),
        .tick("2026-06-05T00:00:00Z"),
    ]

    /// Runs the script; with `restartAfter`, encodes and decodes the state after that many
    /// events and, with `replay`, feeds every earlier input again (a crash before commit).
    static func run(restartAfter: Int? = nil, replay: Bool = false) throws -> [ScheduleOutcome] {
        let codec = WireCodec()
        var state = UserSchedules(recipient: "_u1")
        var outcomes: [ScheduleOutcome] = []
        var index = 0
        var now = Support.at("2026-06-01T00:00:00Z")
        while index < script.count {
            let position = Self.position(Int64(index), "input")
            switch script[index] {
            case .schedule(let schedule): outcomes.append(state.apply(schedule, at: position, now: now, userZone: Support.paris))
            case .tombstone(let key): outcomes.append(ScheduleOutcome(isReplay: !state.remove(key, at: position)))
            case .location(let location): outcomes.append(state.observe(location, at: position))
            case .tick(let text):
                now = Support.at(text)
                outcomes.append(state.fireDue(now: now))
            case .zone(let zone, let text):
                now = Support.at(text)
                outcomes.append(state.timeZoneChanged(to: zone, now: now))
            }
            index += 1
            if index == restartAfter {
                state = try codec.decode(UserSchedules.self, from: try codec.encode(state))
                if replay {
                    for (offset, event) in script.prefix(index).enumerated() {
                        let old = Self.position(Int64(offset), "input")
                        switch event {
                        case .schedule(let schedule): #expect(state.apply(schedule, at: old, now: now, userZone: nil) == .replay)
                        case .location(let location): #expect(state.observe(location, at: old) == .replay)
                        case .tombstone(let key):
                            let removed = state.remove(key, at: old)
                            #expect(!removed)
                        case .tick, .zone: break
                        }
                    }
                }
            }
        }
        return outcomes
    }

    @Test("restarting from the encoded state at any point gives the same firings", arguments: Array(1..<script.count))
    func restart(after: Int) throws {
        let uninterrupted = try Self.run()
        #expect(try Self.run(restartAfter: after) == uninterrupted)
        #expect(try Self.run(restartAfter: after, replay: true) == uninterrupted)
    }

    @Test("the scripted days fire what a user would expect")
    func scriptedDays() throws {
        let firings = try Self.run().flatMap(\.firings).map { "\($0.scheduleID) \($0.trigger.rawValue) \(Support.iso($0.fireDate))" }
        #expect(firings == [
            "hourly immediate 2026-05-31T23:15:00Z", "now immediate 2026-06-01T00:00:01Z",
            "alarm date 2026-06-01T06:00:00Z", "hourly date 2026-06-01T06:15:00Z",
            "hourly date 2026-06-01T09:15:00Z",
            "tower regionEntry 2026-05-28T20:27:40Z",
            "countdown date 2026-06-01T10:00:00Z", "hourly date 2026-06-01T13:15:00Z",
            "tower regionExit 2026-05-28T20:28:40Z",
            // Missed Jun 2 in New York: only the latest, Jun 3 08:00 New York time.
            "alarm date 2026-06-03T12:00:00Z",
            // Back in the schedule's own zone (Paris).
            "alarm date 2026-06-04T06:00:00Z",
        ])
    }
}
