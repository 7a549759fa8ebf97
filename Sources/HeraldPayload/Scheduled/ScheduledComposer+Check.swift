import HeraldModel

extension ScheduledComposer {
    /// Checks that every firing of `schedule` can be composed, by composing one at `now`:
    /// only a firing's ID and instant vary between firings, so one decides for all. For
    /// refusing a schedule when it is saved rather than when it fires.
    /// - Throws: `PayloadError`, as `compose` would at every firing (`payload.tooLarge`,
    ///   `payload.unsupportedField`).
    public func checkFirings(of schedule: Schedule, now: Int64) throws(PayloadError) {
        let firing = ScheduledFiring(schedule: schedule, fireDate: now, trigger: .immediate)
        _ = try compose(firing, sequence: 1, createdAt: now, badge: schedule.applicationIconBadgeNumber)
    }
}
