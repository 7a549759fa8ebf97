import Foundation
import HeraldDelivery
import HeraldKafka
import HeraldModel
import HeraldPayload
import Logging
import Metrics

/// The compose stage (docs/ARCHITECTURE.md §1.1): matches, schedule firings and badge resets of its
/// partitions (all keyed by recipient) → the recipients' next notifications to
/// `notifications`, each badge count a batch changes to `badges` (a `BadgeCount`, what the
/// reader serves), plus each touched user's state to the `compose-state` changelog in the
/// same delivery.
///
/// Exactness: a user's state records the last input offset it applied per topic partition,
/// and is written together with the notifications it produced, so an input replayed after a
/// crash is recognized and skipped (no second notification, no double-counted badge). What a
/// batch changes is staged and only becomes the live state once the runner reports the batch
/// delivered; a failed batch is recomputed from the state before it.
public final class ComposeProcessor: StageProcessor {
    /// The role of an input topic.
    public enum Input: Sendable {
        case matches, badgeResets, scheduleFirings
    }

    public let topics: TopicNames
    /// The input topics' roles.
    let routes: TopicRoutes<Input>
    private let delivery: Delivery
    private let users: UserDirectory
    private let states: KeyedStateStore<UserStreamState>
    private let now: @Sendable () -> Int64
    private let logger: Logger
    /// Inputs over this size are rejected rather than decoded.
    public let maxInputBytes: Int

    /// The stage without a `StageContext`, for tests that feed the processor directly, with
    /// no broker (the context needs a producer of one).
    init(
        topics: TopicNames, delivery: Delivery, users: UserDirectory, changelog: ChangelogReader,
        maxInputBytes: Int = 1 << 20, logger: Logger = Logger(label: "herald.compose"),
        now: @escaping @Sendable () -> Int64 = { EpochMilliseconds.now() }
    ) {
        self.logger = logger
        self.maxInputBytes = maxInputBytes
        self.topics = topics
        self.routes = TopicRoutes(
            stage: "compose",
            [topics.matches: .matches, topics.badgeResets: .badgeResets, topics.scheduleFirings: .scheduleFirings])
        self.delivery = delivery
        self.users = users
        self.states = KeyedStateStore(topic: topics.composeState, changelog: changelog)
        self.now = now
    }

    /// The compose stage over the context's catalog, changelog, logger and clock.
    public convenience init(context: StageContext, delivery: Delivery, users: UserDirectory, maxInputBytes: Int = 1 << 20) {
        self.init(
            topics: context.topics, delivery: delivery, users: users,
            changelog: context.changelogReader(for: "compose"), maxInputBytes: maxInputBytes, logger: context.logger,
            now: context.clock)
    }

    /// How many users' states this instance holds.
    public var userCount: Int { states.count }

    public func process(_ batch: [ConsumedMessage]) async throws -> StageResult {
        await users.gate.wait()
        let time = now()
        let codec = WireCodec()
        var writer = JSONWriter(capacity: 2048)
        var staged = states.batch()
        func state(_ recipient: String) -> UserStreamState {
            staged[recipient] ?? UserStreamState(recipient: recipient)
        }
        /// Decodes an input that becomes a notification (a match, a schedule's firing) and
        /// applies it to its recipient's state. The user's new state is staged only once the
        /// notification is encoded, so a rejected input changes nothing (no sequence number
        /// is used up).
        func compose<Input: NotificationSource>(
            _ type: Input.Type, from value: Data, at position: InputPosition, partition: Int32
        ) throws(Rejection.Reason) -> [OutgoingMessage] {
            let input: Input
            do { input = try Input(inputValue: value, codec: codec) } catch { throw .undecodable("\(error)") }
            var user = state(input.recipient)
            let outcome: Delivery.Outcome
            do throws(PayloadError) {
                outcome = try input.deliver(
                    by: delivery, at: position, state: &user, profile: users.profile(input.recipient), now: time)
            } catch {
                throw Rejection.Reason(code: error.code.rawValue, error.description)
            }
            var outputs = try badgeMessages(from: state(input.recipient), to: user, partition: partition)
            if case .notification(let composed) = outcome {
                report(composed)
                guard let encoded = try? codec.encode(composed.notification, reusing: &writer) else {
                    throw .invalid("notification \(composed.notification.notificationID) could not be encoded")
                }
                outputs.append(OutgoingMessage(topic: topics.notifications, key: input.recipient, value: encoded))
            }
            staged.stage(user, on: partition)
            return outputs
        }
        var result = StageResult.each(batch) { message throws(Rejection.Reason) in
            let role = try routes.role(of: message)
            let value = try message.requiredValue(maxBytes: maxInputBytes)
            let position = message.position
            switch role {
            case .matches:
                return try compose(Match.self, from: value, at: position, partition: message.partition)
            case .scheduleFirings:
                return try compose(ScheduledFiring.self, from: value, at: position, partition: message.partition)
            case .badgeResets:
                let reset: BadgeReset
                do { reset = try codec.decode(BadgeReset.self, from: value) } catch { throw .undecodable("\(error)") }
                var user = state(reset.recipient)
                guard delivery.apply(reset, at: position, state: &user) else { return [] }
                // Sent even when the count does not change: a reset is rare, and the reader
                // then holds the value the user asked for whatever it held before.
                let outputs = try badgeMessages(
                    from: state(reset.recipient), to: user, partition: message.partition, always: reset.containerIdentifier)
                staged.stage(user, on: message.partition)
                return outputs
            }
        }
        // Never skipped: a notification without its state would be sent again, or its
        // sequence reused, after a restart. The batch fails and is retried (loudly).
        result.outputs += try states.changelogMessages(staged)
        states.stage(staged)
        return result
    }

    /// What the composer had to leave out or shorten, logged and counted:
    /// `herald_compose_payload_problems_total{code}` and `herald_compose_payloads_pruned_total`.
    private func report(_ composed: ComposedNotification) {
        let id = composed.notification.notificationID
        if !composed.pruning.isEmpty {
            Counter(label: "herald_compose_payloads_pruned_total").increment()
            logger.info("push payload of \(id) pruned to fit: \(composed.pruning.map(\.description).joined(separator: "; "))")
        }
        for problem in composed.problems {
            Counter(label: "herald_compose_payload_problems_total", dimensions: [("code", problem.code.rawValue)]).increment()
            logger.info("notification \(id) composed with a problem: \(problem)")
        }
    }

    public func delivered(_ batch: [ConsumedMessage]) async {
        states.commit()
    }

    /// Restores the users of the newly assigned partitions from the changelog.
    public func partitionsAssigned(_ partitions: [TopicPartition]) async throws {
        try await states.restore(partitions)
    }

    /// Drops the users of partitions taken away (their new owner restores them).
    public func partitionsRevoked(_ partitions: [TopicPartition]) async {
        states.revoke(partitions)
    }
}

extension UserStreamState: KeyedState {
    public var stateKey: String { recipient }
}
