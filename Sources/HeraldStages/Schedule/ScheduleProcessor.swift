import Foundation
import HeraldKafka
import HeraldModel
import HeraldScheduler
import Synchronization

/// The schedule stage (docs/ARCHITECTURE.md §1.1, docs/cloudkit-behaviour.md §10):
/// schedules and device locations of its partitions (all placed by recipient) → firings to
/// `schedule-firings`, which the compose stage turns into the recipients' notifications, so
/// badges and sequence numbers stay in one place.
///
/// - Time: every `tickInterval` the runner calls `tick()`, which fires what came due by
///   the injected clock and recomputes floating schedules of users whose time zone changed
///   (from the `users` topic). Tests run it in virtual time.
/// - Exactness: each user's `UserSchedules` — armed schedules, next fire instants, region
///   states, the last input offset applied per partition — goes to the compacted
///   `schedule-state` changelog with the firings it produced, on the input's partition,
///   and is restored from there on assignment; a replayed input is recognized and skipped.
///   A firing produced twice (a crash between the firing and its state) has the same
///   deterministic ID (schedule + instant), so compose and the reader drop the copy.
/// - Schedules that finished (fired once, region triggered once) or were discarded by the
///   64 limit get a tombstone in `schedules`, so the API stops listing them.
/// - Input must be on its recipient's partition (`KeyPartitioner` of the recipient):
///   anything else, or undecodable, goes to dead letters with the reason.
public final class ScheduleProcessor: StageProcessor {
    /// The role of an input topic.
    public enum Input: Sendable {
        case schedules, locations
    }

    /// When the live states need a tick: derived from them as they become live.
    private struct Timers {
        var deadlines = DeadlineQueue()
        /// Users of this instance whose time zone changed and who are not recomputed yet.
        var zoneChanged: Set<String> = []
        /// The zone changes the staged tick took into account (done once it is delivered).
        var stagedZoneChecks: Set<String> = []
    }

    public let topics: TopicNames
    /// The input topics' roles.
    let routes: TopicRoutes<Input>
    public let partitions: Int32
    public let tickInterval: Duration?
    /// Inputs over this size are rejected rather than decoded.
    public let maxInputBytes: Int
    private let users: UserDirectory
    private let states: KeyedStateStore<UserSchedules>
    private let now: @Sendable () -> Int64
    private let timers = Mutex(Timers())

    /// The schedule stage over the context's catalog (its partition count checks placement),
    /// changelog and clock (milliseconds since 1970).
    /// - Parameters:
    ///   - users: profiles with time-zone tracking on (`UserDirectory(tracksTimeZones: true)`).
    ///   - tickInterval: how often due schedules are looked for. Default 1 s.
    public init(
        context: StageContext, users: UserDirectory, tickInterval: Duration = .seconds(1), maxInputBytes: Int = 1 << 20
    ) {
        let topics = context.topics
        self.topics = topics
        self.routes = TopicRoutes(stage: "schedule", [topics.schedules: .schedules, topics.locations: .locations])
        self.partitions = context.catalog.partitions
        self.users = users
        self.states = KeyedStateStore(topic: topics.scheduleState, changelog: context.changelogReader(for: "schedule"))
        self.tickInterval = tickInterval
        self.maxInputBytes = maxInputBytes
        self.now = context.clock
    }

    /// How many users' schedules this instance holds.
    public var userCount: Int { states.count }

    /// The earliest instant a schedule of this instance fires at, if any.
    public var nextDeadline: Int64? { timers.withLock { $0.deadlines.nextDeadline } }

    public func process(_ batch: [ConsumedMessage]) async throws -> StageResult {
        await users.gate.wait()
        var work = Work(processor: self, states: states.batch(), now: now())
        var result = StageResult.each(batch) { message throws(Rejection.Reason) in
            try work.apply(message)
        }
        result.outputs += try states.changelogMessages(work.states)
        states.stage(work.states)
        timers.withLock { $0.stagedZoneChecks = [] }
        return result
    }

    public func tick() async throws -> StageResult {
        await users.gate.wait()
        let time = now()
        let changes = users.takeTimeZoneChanges().filter { states.partition(of: $0) != nil }
        let (due, dirty) = timers.withLock { timers -> ([String], Set<String>) in
            timers.zoneChanged.formUnion(changes)
            var deadlines = timers.deadlines  // a copy: the live queue changes only once delivered
            let due = Set(deadlines.due(now: time)).union(timers.zoneChanged)
            return (due.sorted(), timers.zoneChanged)
        }
        var work = Work(processor: self, states: states.batch(), now: time)
        for recipient in due {
            try work.fire(recipient, zoneChanged: dirty.contains(recipient))
        }
        let result = StageResult(outputs: work.outputs + (try states.changelogMessages(work.states)))
        states.stage(work.states)
        timers.withLock { $0.stagedZoneChecks = dirty }
        return result
    }

    public func delivered(_ batch: [ConsumedMessage]) async {
        let committed = states.commit()
        timers.withLock { timers in
            for (recipient, entry) in committed {
                timers.deadlines.update(recipient, deadline: entry.state.nextDeadline)
                timers.zoneChanged.remove(recipient)
            }
            timers.zoneChanged.subtract(timers.stagedZoneChecks)
            timers.stagedZoneChecks = []
        }
    }

    /// Restores the users of the newly assigned partitions from the changelog; their
    /// floating schedules are checked against their current zone at the next tick.
    public func partitionsAssigned(_ partitions: [TopicPartition]) async throws {
        let restored = try await states.restore(partitions)
        timers.withLock { timers in
            for (recipient, entry) in restored {
                timers.deadlines.update(recipient, deadline: entry.state.nextDeadline)
                timers.zoneChanged.insert(recipient)
            }
        }
    }

    /// Drops the users of partitions taken away (their new owner restores them).
    public func partitionsRevoked(_ partitions: [TopicPartition]) async {
        let dropped = states.revoke(partitions)
        timers.withLock { timers in
            timers.stagedZoneChecks = []
            for recipient in dropped {
                timers.deadlines.remove(recipient)
                timers.zoneChanged.remove(recipient)
            }
        }
    }

    /// The user's current zone from the `users` topic (`nil`: unknown, or not a zone).
    func zone(of recipient: String) -> TimeZone? {
        users.profile(recipient)?.timeZone.flatMap(TimeZone.init(identifier:))
    }

    /// The partition of a user's records.
    func partition(of recipient: String) -> Int32 {
        KeyPartitioner.partition(of: recipient, partitions: partitions)
    }

    /// The partition a user's state lives on, for a tick (no input message to follow).
    func livePartition(of recipient: String) -> Int32 {
        states.partition(of: recipient) ?? partition(of: recipient)
    }
}

extension UserSchedules: KeyedState {
    public var stateKey: String { recipient }
}
