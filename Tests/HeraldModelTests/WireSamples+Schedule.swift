import HeraldModel

extension WireSamples {
    /// A schedule on a date (with or without a zone and a repeat) or on a region, with
    /// random optional alert members.
    mutating func schedule() -> Schedule {
        let onRegion = chance(30)
        let region = ScheduleRegion(
            latitude: Double.random(in: -90...90, using: &random), longitude: chance(20) ? -0.0 : 2.2945,
            radius: chance(50) ? 200 : Double.random(in: 1...1_000_000, using: &random),
            notifyOnEntry: chance(70), notifyOnExit: true)
        return Schedule(
            scheduleID: name(), container: text(), recipient: text(),
            fireDate: onRegion ? nil : Int64.random(in: 0...253_402_300_799_999, using: &random),
            timeZone: optional { _ in "Europe/Paris" }, repeatInterval: optional { $0.random.next() % 2 == 0 ? .week : .minute },
            repeatCalendar: optional { _ in "gregorian" }, region: onRegion ? region : nil,
            regionTriggersOnce: chance(50), alertBody: optional { $0.text(nonEmpty: false) },
            alertAction: optional { $0.text() }, alertTitle: optional { $0.text() }, alertLaunchImage: optional { $0.text() },
            category: optional { $0.name() }, soundName: optional { $0.text() }, hasAction: chance(50),
            applicationIconBadgeNumber: optional { s in Int.random(in: 0...Int(Int32.max), using: &s.random) },
            userInfo: optional { s in [s.text(): .string(s.text()), s.name(): .integer(s.integer())] },
            createdAt: optional { s in Int64.random(in: 0...Int64.max, using: &s.random) })
    }

    /// A daily Paris alarm written at 02:30 on the spring-forward day (2026-03-29), a time
    /// the zone skips: its `wallClockFireDate` is on the wire beside the resolved instant.
    mutating func gapDaySchedule() -> Schedule {
        var schedule = schedule()
        schedule.region = nil
        schedule.timeZone = "Europe/Paris"
        schedule.fireDate = 1_774_747_800_000  // 2026-03-29T01:30:00Z, 03:30 in Paris
        schedule.wallClockFireDate = 1_774_751_400_000  // 2026-03-29T02:30:00, nominal
        return schedule
    }

    /// A firing of a random schedule (its ID derived, as the schedule stage derives it).
    mutating func scheduledFiring() -> ScheduledFiring {
        let trigger = ScheduledFiring.Trigger.allCases.randomElement(using: &random)!
        return ScheduledFiring(schedule: chance(20) ? gapDaySchedule() : schedule(), fireDate: Int64.random(in: 0...Int64.max, using: &random), trigger: trigger)
    }
}
