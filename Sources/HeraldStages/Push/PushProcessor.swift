import Foundation
import HeraldKafka
import HeraldModel
import HeraldPush
import Logging
import Synchronization

/// The push stage (docs/ARCHITECTURE.md §1.1): `notifications`, `devices` and
/// `notification-reads` of its partitions (all placed by user) → each notification's APNs
/// payload to every registered device of its recipient, through the injected transports.
///
/// - Devices: a `devices` record (key `container/user/token`, on the user's partition)
///   registers or, null, removes one device; past `DeviceRules.maxDevicesPerUser` the
///   oldest are dropped with a tombstone (and counted).
/// - Never twice: each user's `UserPushState` — devices, the last notification settled per
///   device, pending retries — goes to the compacted `push-state` changelog with the
///   batch's other outputs and is restored from it on assignment. A crash can repeat only
///   the pushes acknowledged by a provider and not yet written to the changelog: those of
///   the batches in flight (the stage is pipelined: up to
///   `StageConfiguration.pipelinedBatchesInFlight` batches' outputs wait for their
///   acknowledgement while the next batch is sent) or of the tick.
/// - Responses → `PushAction`: removed devices get a tombstone on `devices` (only when the
///   provider saw the token invalid after it was registered); retries wait in the user's
///   state and are sent by `tick()`, never by sleeping in the consume loop; a 403 pauses
///   the app (readiness condition `push.app.<app>`); permanent failures go to dead letters.
public final class PushProcessor: StageProcessor {
    /// The role of an input topic.
    public enum Input: Sendable {
        case notifications, devices, reads
    }

    /// How the stage pushes.
    public struct Settings: Sendable {
        /// Token shapes and the per-user device cap.
        public var rules = DeviceRules()
        /// Back-off between attempts of one push, and how many retries before it is
        /// dead-lettered (`PushRetryPolicy`'s defaults: 0.5 s doubling to 5 min, 50 % jitter,
        /// `Retry-After` as a floor, 8 retries).
        public var retry = PushRetryPolicy()
        /// How long a 403 pauses an app before one push tries again. Default: 5 minutes.
        public var pause: Duration = .seconds(300)
        /// How long a provider may keep a push for an offline device (`apns-expiration`,
        /// counted from the notification's composition); retries stop then too. Default: 1 day.
        public var expiry: Duration = .seconds(86_400)
        /// How often due retries are looked for. Default: 250 ms.
        public var retryTick: Duration = .milliseconds(250)
        /// Most pushes one user may have waiting for a retry (or for a paused app); past
        /// it the oldest is dead-lettered. Default: 1000.
        public var maxPendingPerUser = 1000
        /// Most input messages the stage's consumer hands over per batch (poll), and the
        /// runner's pipelined part. A crash (kill -9) can repeat the pushes of the batches in
        /// flight (up to 4), so smaller batches mean a smaller window; every batch costs a
        /// changelog write and a commit. Default: 256 (other stages: 1000).
        public var maxBatchSize = 256
        /// Pushes in flight at once (per worker). Default: 64.
        public var maxConcurrentSends = 64
        /// Members of the push stage's consumer group in one process (`--push-workers`),
        /// each with its own partitions, users and batches, so one's sending overlaps the
        /// others' Kafka round trips; transports and app pauses are shared. Default: 2.
        public var workers = 2
        /// Inputs over this size are rejected rather than decoded. Default: 1 MiB.
        public var maxInputBytes = 1 << 20

        public init() {}
    }

    public let topics: TopicNames
    let routes: TopicRoutes<Input>
    let settings: Settings
    let partitions: Int32
    let transports: PushTransports
    let states: KeyedStateStore<UserPushState>
    /// Reads compacted partitions to their end (`push-state` on assignment, and `devices`).
    let changelog: ChangelogReader
    let pauses: PushPauses
    let metrics = PushMetrics()
    let now: @Sendable () -> Int64
    let logger: Logger
    /// The next instant each user of this instance has a pending push due.
    private let dueUsers = Mutex<[String: Int64]>([:])

    /// The stage without a `StageContext`, for tests that feed the processor directly.
    init(
        topics: TopicNames, partitions: Int32, transports: PushTransports, settings: Settings = Settings(),
        changelog: ChangelogReader, readiness: Readiness? = nil, logger: Logger = Logger(label: "herald.push"),
        now: @escaping @Sendable () -> Int64 = { EpochMilliseconds.now() }, pauses: PushPauses? = nil
    ) {
        self.topics = topics
        self.routes = TopicRoutes(
            stage: "push",
            [topics.notifications: .notifications, topics.devices: .devices, topics.notificationReads: .reads])
        self.settings = settings
        self.partitions = partitions
        self.transports = transports
        self.states = KeyedStateStore(topic: topics.pushState, changelog: changelog)
        self.changelog = changelog
        self.pauses = pauses ?? PushPauses(readiness: readiness)
        self.now = now
        self.logger = logger
    }

    /// The push stage over the context's catalog, changelog, readiness, logger and clock.
    /// - Parameter sibling: another worker of the stage in this process, whose app pauses
    ///   (403s) this one shares.
    public convenience init(
        context: StageContext, transports: PushTransports, settings: Settings = Settings(),
        sharingPausesWith sibling: PushProcessor? = nil
    ) {
        self.init(
            topics: context.topics, partitions: context.catalog.partitions, transports: transports, settings: settings,
            changelog: context.changelogReader(for: "push"), readiness: context.readiness, logger: context.logger,
            now: context.clock, pauses: sibling?.pauses)
    }

    public var tickInterval: Duration? { settings.retryTick }

    /// How many users' devices this instance holds.
    public var userCount: Int { states.count }

    /// A user's state as this instance holds it (live, not staged).
    public func state(of user: String) -> UserPushState? { states.batch()[user] }

    public func process(_ batch: [ConsumedMessage]) async throws -> StageResult {
        var work = Work(processor: self, states: states.batch(), now: now())
        var result = StageResult.each(batch) { message throws(Rejection.Reason) in
            try work.apply(message)
        }
        await work.send()
        result.outputs += work.outputs
        result.outputs += try states.changelogMessages(work.states)
        states.stage(work.states)
        return result
    }

    /// Sends the pending pushes that came due.
    public func tick() async throws -> StageResult {
        let time = now()
        let due = dueUsers.withLock { users in users.filter { $0.value <= time }.map(\.key).sorted() }
        guard !due.isEmpty else { return StageResult() }
        var work = Work(processor: self, states: states.batch(), now: time)
        for user in due { work.retryDue(user) }
        await work.send()
        let result = StageResult(outputs: work.outputs + (try states.changelogMessages(work.states)))
        states.stage(work.states)
        return result
    }

    public func delivered(_ batch: [ConsumedMessage]) async {
        track(states.commit())
    }

    /// Restores the users of the newly assigned partitions from the changelog, then adds
    /// the registrations the `devices` partitions hold at their end that the changelog does
    /// not have yet (`previewDevices`).
    public func partitionsAssigned(_ partitions: [TopicPartition]) async throws {
        track(try await states.restore(partitions))
        let devices = partitions.filter { $0.topic == topics.devices }.map(\.partition)
        track(try await previewDevices(partitions: devices))
    }

    /// Drops the users of partitions taken away (their new owner restores them).
    public func partitionsRevoked(_ partitions: [TopicPartition]) async {
        let dropped = states.revoke(partitions)
        dueUsers.withLock { users in for user in dropped { users[user] = nil } }
    }

    /// Whether `response` removes `device`: the provider calls the token gone, and saw it
    /// so after the device's (re-)registration (or gave no time).
    static func removes(_ response: ProviderResponse, device: Device) -> Bool {
        guard case .removeDevice(_, let observedAt) = PushAction(response: response, platform: device.platform) else { return false }
        return observedAt.map { $0 > device.registeredAt } ?? true
    }

    /// The partition a user's records belong on (murmur2 of the user, as the Java client).
    func partition(of user: String) -> Int32 { KeyPartitioner.partition(of: user, partitions: partitions) }

    func track(_ entries: [String: KeyedStateStore<UserPushState>.Entry]) {
        dueUsers.withLock { users in
            for (user, entry) in entries { users[user] = entry.state.nextDue }
        }
    }
}

extension UserPushState: KeyedState {
    public var stateKey: String { user }
}
