import HeraldModel

extension UserSchedules {
    /// Applies a device location to the user's region schedules in its container.
    ///
    /// A crossing fires for the location's timestamp (trigger `.regionEntry` or
    /// `.regionExit`, see `RegionTracker`); a schedule with `regionTriggersOnce` is then
    /// finished, otherwise it fires again on every qualifying crossing.
    /// - Parameter position: where the input came from; an input already applied is ignored.
    /// - Returns: the firings by schedule key, and the finished keys. A location for
    ///   another recipient is ignored.
    public mutating func observe(_ location: DeviceLocation, at position: InputPosition) -> ScheduleOutcome {
        guard appliedOffsets.insert(position) else { return .replay }
        guard location.recipient == recipient else { return ScheduleOutcome() }
        var outcome = ScheduleOutcome()
        let keys = schedules.filter { $0.value.region != nil && $0.value.schedule.container == location.container }.keys
        for key in keys.sorted() {
            guard var armed = schedules[key], var tracker = armed.region, let region = armed.schedule.region else { continue }
            let trigger = tracker.observe(location, in: region)
            armed.region = tracker
            schedules[key] = armed
            guard let trigger else { continue }
            outcome.firings.append(ScheduledFiring(schedule: armed.schedule, fireDate: location.timestamp, trigger: trigger))
            if armed.schedule.regionTriggersOnce {
                schedules[key] = nil
                outcome.finished.append(key)
            }
        }
        return outcome
    }
}
