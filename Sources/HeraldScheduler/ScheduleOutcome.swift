import HeraldModel

/// What applying one input to a user's schedules produced, for the schedule stage to
/// write: firings to `schedule-firings`, and tombstones to `schedules` for the keys that
/// are done.
public struct ScheduleOutcome: Sendable, Hashable {
    /// The firings, by instant then schedule key.
    public var firings: [ScheduledFiring]
    /// Keys (`Schedule.partitionKey`) dropped by the pending limit; no longer in the state.
    /// The stage tombstones them too: UIKit forgets a discarded notification entirely.
    public var discarded: [String]
    /// Keys of schedules that will never fire again (once-schedules that fired, regions
    /// that triggered once); no longer in the state.
    public var finished: [String]
    /// Whether the input was a replay (its position was already applied) and was ignored.
    public var isReplay: Bool

    /// Creates an outcome; empty by default.
    public init(firings: [ScheduledFiring] = [], discarded: [String] = [], finished: [String] = [], isReplay: Bool = false) {
        self.firings = firings
        self.discarded = discarded
        self.finished = finished
        self.isReplay = isReplay
    }

    /// An ignored replay.
    public static let replay = ScheduleOutcome(isReplay: true)

    /// Whether there is nothing to write.
    public var isEmpty: Bool { firings.isEmpty && discarded.isEmpty && finished.isEmpty }
}
