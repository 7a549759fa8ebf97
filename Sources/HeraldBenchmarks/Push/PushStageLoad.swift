import Foundation
import HeraldKafka
import HeraldModel
import HeraldPayload

/// The notifications of the stage-level run and the three ways they are produced: a
/// warm-up (one per user), as fast as the producer takes them, and paced. Each is composed
/// as the compose stage composes them (`NotificationComposer` over a query match of a
/// record creation, badge and sound, one desired key) and encoded with `WireCodec`, keyed by
/// recipient like compose's output, before its phase starts, so composing costs the
/// measured phase nothing. A phase ends when the stand-in has answered every push it expects.
struct PushStageLoad {
    /// Every tick of the paced phase produces what is due.
    static let tick: Duration = .milliseconds(5)
    /// Sends in flight at once; past it the producer waits.
    static let sendsInFlight = 64
    /// Notifications per send of the maximum-rate phase.
    static let chunk = 500
    /// Notifications per partition produced and not yet answered, at most, in the warm-up
    /// and maximum-rate phases: the embedded broker keeps only the newest ~5 MB of a
    /// partition, and a backlog of ~1.3 KB notifications past that is dropped under the
    /// push stage's consumer (a run of 50,000 on 6 partitions once lost some that way).
    /// 1,500 (~2 MB) still keeps the stage busy for over a second.
    static let outstandingPerPartition = 1_500

    let settings: PushStageRun.Settings
    let producer: KafkaProducer
    let topic: String
    let acknowledgements: PushAcknowledgements

    /// User `index`'s name.
    static func user(_ index: Int) -> String { "_u\(index)" }

    /// One notification to every user (at most 10,000), waited for; its answers are not reported.
    func warmUp() async throws -> PushAcknowledgements.Phase {
        let messages = try compose(0..<min(settings.users, 10_000))
        let start = ContinuousClock.now
        try await produce(messages)
        return try await finish("warm-up", since: start)
    }

    /// `settings.notifications` notifications, produced in chunks with `sendsInFlight` sends
    /// at once, at most `outstandingPerPartition` per partition ahead of the answers.
    func maximum() async throws -> PushAcknowledgements.Phase {
        let first = min(settings.users, 10_000)
        let messages = try compose(first..<(first + settings.notifications))
        let start = ContinuousClock.now
        try await produce(messages)
        return try await finish("maximum-rate", since: start)
    }

    /// Notifications at `rate` per second for `seconds`: every `tick` those due, each timed
    /// from the moment its send was handed to the producer.
    func paced(rate: Double, seconds: Double) async throws -> PushAcknowledgements.Phase {
        let first = min(settings.users, 10_000) + settings.notifications
        let count = max(1, Int(rate * seconds))
        let messages = try compose(first..<(first + count))
        let start = ContinuousClock.now
        try await withThrowingTaskGroup(of: Void.self) { sends in
            var produced = 0
            var inFlight = 0
            var tick = start
            while produced < count {
                let due = min(count, Int(rate * start.duration(to: .now).seconds) + 1)
                if due > produced {
                    let batch = messages[produced..<due]
                    produced = due
                    if inFlight >= Self.sendsInFlight {
                        try await sends.next()
                        inFlight -= 1
                    }
                    sends.addTask { try await send(batch) }
                    inFlight += 1
                }
                tick += Self.tick
                try await Task.sleep(until: tick, clock: .continuous)
            }
            try await sends.waitForAll()
        }
        return try await finish("paced", since: start)
    }

    /// Produces `messages` in chunks, `sendsInFlight` at once, and no further ahead of the
    /// stand-in's answers than `outstandingPerPartition` per partition.
    private func produce(_ messages: [Notification]) async throws {
        let outstanding = Self.outstandingPerPartition * Int(settings.partitions) * settings.devicesPerUser
        try await withThrowingTaskGroup(of: Void.self) { sends in
            var inFlight = 0
            for start in stride(from: 0, to: messages.count, by: Self.chunk) {
                if inFlight >= Self.sendsInFlight {
                    try await sends.next()
                    inFlight -= 1
                }
                while true {
                    let progress = acknowledgements.progress
                    if progress.expected - progress.answered < outstanding { break }
                    try await Task.sleep(for: .milliseconds(1))
                }
                let batch = messages[start..<min(start + Self.chunk, messages.count)]
                sends.addTask { try await send(batch) }
                inFlight += 1
            }
            try await sends.waitForAll()
        }
    }

    private func send(_ batch: ArraySlice<Notification>) async throws {
        acknowledgements.produced(batch.map(\.id), expected: settings.devicesPerUser, at: .now)
        _ = try await producer.send(batch.map(\.message))
    }

    /// Waits until every push of the phase is answered (2 minutes plus a millisecond per
    /// expected push at most), then ends the phase.
    /// - Throws: `BenchmarkError` saying how many pushes were answered.
    private func finish(_ phase: String, since start: ContinuousClock.Instant) async throws -> PushAcknowledgements.Phase {
        let deadline = start + .seconds(120) + .milliseconds(acknowledgements.progress.expected)
        while true {
            let progress = acknowledgements.progress
            if progress.answered >= progress.expected { return acknowledgements.finish() }
            guard ContinuousClock.now < deadline else {
                throw BenchmarkError(
                    "the \(phase) phase: the stand-in answered \(progress.answered) of \(progress.expected) pushes within \(start.duration(to: .now).seconds.rounded()) s")
            }
            try await Task.sleep(for: .milliseconds(2))
        }
    }

    /// A notification ready to produce.
    struct Notification: Sendable {
        var id: String
        var message: OutgoingMessage
    }

    /// Notifications number `indices`, composed and encoded.
    func compose(_ indices: Range<Int>) throws -> [Notification] {
        let composer = NotificationComposer()
        let codec = WireCodec()
        let now = EpochMilliseconds.now()
        return try indices.map { index in
            let user = Self.user(index % settings.users)
            let match = Self.match(index, user: user, timestamp: now)
            let composed: ComposedNotification
            do {
                composed = try composer.compose(
                    match, sequence: Int64(index / settings.users + 1), createdAt: now, badge: index / settings.users + 1)
            } catch {
                throw BenchmarkError("cannot compose notification \(index): \(error)")
            }
            let value = try codec.encode(composed.notification)
            return Notification(id: match.notificationID, message: OutgoingMessage(topic: topic, key: user, value: value))
        }
    }

    /// A chat message created in the public database, matched by the recipient's query subscription.
    static func match(_ index: Int, user: String, timestamp: Int64) -> Match {
        let subscription = Subscription(
            subscriptionID: "messages", subscriptionType: .query, container: PushStageRun.container, database: .public,
            ownerRecordName: user, query: SubscriptionQuery(recordType: "Message", predicate: "TRUEPREDICATE"),
            firesOn: [.create],
            notificationInfo: NotificationInfo(
                alertBody: "New message", title: "Family Chat", soundName: "default", shouldBadge: true, desiredKeys: ["title"]))
        let change = RecordChange(
            changeID: "push-\(index)", container: PushStageRun.container, database: .public,
            zoneID: ZoneID(zoneName: "_defaultZone", ownerRecordName: "_system"), recordType: "Message",
            recordName: "message-\(index)", kind: .create, fields: ["title": .string("Message \(index)")], timestamp: timestamp)
        return Match(
            recipient: user, notificationType: .query, queryNotificationReason: .recordCreated, subscription: subscription,
            change: change)
    }
}
