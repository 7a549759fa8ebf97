import Foundation
import HeraldKafka
import HeraldModel
import HeraldPush
import Metrics

extension PushProcessor {
    /// One push to one device, about to be sent.
    struct Attempt: Sendable {
        var user: String
        var request: PushRequest
        var offset: Int64
        var createdAt: Int64
        /// Earlier attempts the provider did not accept.
        var failures: Int
    }

    /// One batch's (or tick's) work: the users' states as they change, the pushes to send
    /// and the messages to produce.
    struct Work {
        let processor: PushProcessor
        var states: StagedStates<UserPushState>
        let now: Int64
        var outputs: [OutgoingMessage] = []
        var attempts: [Attempt] = []

        init(processor: PushProcessor, states: StagedStates<UserPushState>, now: Int64) {
            self.processor = processor
            self.states = states
            self.now = now
        }

        private var topics: TopicNames { processor.topics }

        func state(_ user: String) -> UserPushState { states[user] ?? UserPushState(user: user) }

        mutating func stage(_ state: UserPushState) {
            states.stage(state, on: processor.partition(of: state.user))
        }

        /// Applies one input message; returns what it produces at once (device tombstones).
        mutating func apply(_ message: ConsumedMessage) throws(Rejection.Reason) -> [OutgoingMessage] {
            if let value = message.value, value.count > processor.settings.maxInputBytes {
                throw .tooLarge("\(message.topic) record of \(value.count) bytes exceeds \(processor.settings.maxInputBytes)")
            }
            switch try processor.routes.role(of: message) {
            case .devices: return try applyDevice(message)
            case .notifications: try applyNotification(message)
            case .reads: try applyRead(message)
            }
            return []
        }

        private mutating func applyDevice(_ message: ConsumedMessage) throws(Rejection.Reason) -> [OutgoingMessage] {
            guard let key = message.keyString, let parts = Device.registryKeyParts(key) else {
                throw .invalid("a devices record needs the key container/user/token")
            }
            let expected = processor.partition(of: parts.user)
            guard message.partition == expected else {
                throw .invalid(
                    "devices record for user '\(parts.user)' is on partition \(message.partition), but belongs on partition \(expected) (murmur2 of the user, as the Java client's default partitioner)")
            }
            var user = state(parts.user)
            guard message.offset > user.appliedDevices else { return [] }
            user.appliedDevices = message.offset
            guard let value = message.value else {
                user.remove("\(parts.container)/\(parts.token)")
                stage(user)
                return []
            }
            let device: Device
            do throws(PushError) { device = try processor.settings.rules.decode(value) } catch {
                throw Rejection.Reason(code: error.code.rawValue, error.description)
            }
            guard device.registryKey == key else { throw .invalid("key '\(key)' is not the device's own key '\(device.registryKey)'") }
            let dropped = user.register(device, maxDevices: processor.settings.rules.maxDevicesPerUser)
            stage(user)
            guard !dropped.isEmpty else { return [] }
            processor.metrics.pruned("cap", count: dropped.count)
            processor.logger.info(
                "user \(parts.user) has more than \(processor.settings.rules.maxDevicesPerUser) devices: dropped the oldest \(dropped.map(\.registryKey))")
            return dropped.map { tombstone($0) }
        }

        private mutating func applyNotification(_ message: ConsumedMessage) throws(Rejection.Reason) {
            let value = try message.requiredValue(maxBytes: processor.settings.maxInputBytes)
            let notification: HeraldNotification
            do { notification = try WireCodec().decode(HeraldNotification.self, from: value) } catch {
                throw .undecodable("\(error)")
            }
            // A user without state has no device: nothing to push, nothing to keep.
            guard var user = states[notification.recipient] else { return }
            let targets = user.targets(of: notification, offset: message.offset)
            let first = user.handled.insert(notification.sequence)
            guard let apns = notification.apns, !targets.isEmpty else {
                if first { stage(user) }
                return
            }
            for device in targets {
                user.settle(device.userKey, offset: message.offset)
                let request = PushRequest(
                    device: device, notificationID: notification.notificationID, apns: apns,
                    expiration: notification.createdAt / 1000 + processor.settings.expiry.components.seconds)
                let attempt = Attempt(
                    user: user.user, request: request, offset: message.offset, createdAt: notification.createdAt, failures: 0)
                if let until = processor.pauses.pausedUntil(device.pushApp, now: now) {
                    addPending(pending(attempt, failures: 0, due: until, reason: "app paused"), to: &user)
                } else {
                    attempts.append(attempt)
                }
            }
            stage(user)
        }

        private mutating func applyRead(_ message: ConsumedMessage) throws(Rejection.Reason) {
            let value = try message.requiredValue(maxBytes: processor.settings.maxInputBytes)
            let read: NotificationRead
            do { read = try WireCodec().decode(NotificationRead.self, from: value) } catch { throw .undecodable("\(error)") }
            guard var user = states[read.recipient] else { return }
            let ids = Set(read.notificationIDs)
            user.pending.removeAll { ids.contains($0.notificationID) }
            for id in read.notificationIDs { user.remember(id) }
            stage(user)
        }

        /// Queues the user's pending pushes that came due (dead-lettering expired ones).
        mutating func retryDue(_ name: String) {
            guard var user = states[name] else { return }
            for push in user.takeDue(now: now) {
                guard let device = user.devices[push.deviceKey] else { continue }
                if push.expiration > 0, push.expiration * 1000 < now {
                    deadLetter(push.notificationID, device: device, offset: push.offset, apns: push.apns, reason: "expired after \(push.attempts) attempts: \(push.lastReason)", metric: "expired")
                    continue
                }
                let request = PushRequest(device: device, notificationID: push.notificationID, apns: push.apns, expiration: push.expiration)
                let attempt = Attempt(user: name, request: request, offset: push.offset, createdAt: push.createdAt, failures: push.attempts)
                if let until = processor.pauses.pausedUntil(device.pushApp, now: now) {
                    addPending(pending(attempt, failures: push.attempts, due: until, reason: push.lastReason), to: &user)
                } else {
                    attempts.append(attempt)
                }
            }
            stage(user)
        }

        /// Sends the queued pushes, at most `maxConcurrentSends` at once, and applies the
        /// providers' answers. One device's pushes go one after the other, each after the
        /// provider answered the one before, so a token the provider calls gone (410,
        /// `BadDeviceToken`, …) is not pushed again in this batch: its remaining pushes are
        /// dropped with the device. Once the provider refuses an app's credentials (403), the
        /// batch's pushes of that app not yet sent are not sent: they wait with the pause.
        mutating func send() async {
            guard !attempts.isEmpty else { return }
            let queued = attempts
            attempts = []
            let lanes = Self.lanes(queued)
            let transports = processor.transports
            let refusals = AppRefusals()
            let limit = max(1, processor.settings.maxConcurrentSends)
            var responses = [ProviderResponse?](repeating: nil, count: queued.count)
            await withTaskGroup(of: [(Int, ProviderResponse)].self) { group in
                var next = 0
                func start() {
                    let lane = lanes[next].map { ($0, queued[$0].request) }
                    next += 1
                    group.addTask {
                        var answered: [(Int, ProviderResponse)] = []
                        for (index, request) in lane {
                            let device = request.device
                            let response: ProviderResponse
                            if let refusal = refusals.refusal(for: device.pushApp) {
                                response = refusal
                            } else {
                                response = await transports.transport(for: device.platform).send(request)
                                refusals.note(response, app: device.pushApp, platform: device.platform)
                            }
                            answered.append((index, response))
                            if PushProcessor.removes(response, device: request.device) { break }
                        }
                        return answered
                    }
                }
                while next < min(limit, lanes.count) { start() }
                while let answered = await group.next() {
                    for (index, response) in answered { responses[index] = response }
                    if next < lanes.count { start() }
                }
            }
            let acknowledged = processor.now()
            for (attempt, response) in zip(queued, responses) {
                // Not sent: an earlier push to the device removed it (`apply` finds it gone).
                guard let response else { continue }
                apply(response, to: attempt, at: acknowledged)
            }
        }

        /// The attempts' indices grouped by device (user and `userKey`), in queue order.
        private static func lanes(_ attempts: [Attempt]) -> [[Int]] {
            var lanes: [[Int]] = []
            var laneOf: [String: Int] = [:]
            for (index, attempt) in attempts.enumerated() {
                let key = attempt.user + "/" + attempt.request.device.userKey
                if let lane = laneOf[key] {
                    lanes[lane].append(index)
                } else {
                    laneOf[key] = lanes.count
                    lanes.append([index])
                }
            }
            return lanes
        }

        /// Carries out the action a provider's answer calls for.
        private mutating func apply(_ response: ProviderResponse, to attempt: Attempt, at acknowledged: Int64) {
            var user = state(attempt.user)
            let device = attempt.request.device
            // Removed meanwhile (a tombstone, the cap): nothing more to do for it.
            guard let current = user.devices[device.userKey] else { return }
            let metrics = processor.metrics
            switch PushAction(response: response, platform: device.platform) {
            case .sent:
                metrics.sent.increment()
                metrics.latency.recordMilliseconds(max(0, acknowledged - attempt.createdAt))
                processor.pauses.resume(device.pushApp)
            case .retry(let afterSeconds):
                let failures = attempt.failures + 1
                let reason = Self.reason(of: response)
                // Seeded by the push, so a replayed batch waits as long as the first time.
                var jitter = SplitMix64(seed: attempt.request.notificationID + device.token)
                guard let delay = processor.settings.retry.delay(attempt: failures, retryAfterSeconds: afterSeconds, using: &jitter)
                else {
                    deadLetter(attempt, reason: "retries exhausted after \(failures) attempts: \(reason)", metric: "retries_exhausted")
                    break
                }
                metrics.retried.increment()
                let (seconds, attoseconds) = delay.components
                let due = now + seconds * 1000 + attoseconds / 1_000_000_000_000_000
                addPending(pending(attempt, failures: failures, due: due, reason: reason), to: &user)
            case .removeDevice(let reason, let observedAt):
                metrics.failed(reason)
                if !PushProcessor.removes(response, device: current), let observedAt {
                    processor.logger.info(
                        "provider reported \(device.registryKey) \(reason) at \(observedAt), before its registration at \(current.registeredAt): kept")
                    break
                }
                user.remove(device.userKey)
                outputs.append(tombstone(current))
                metrics.pruned("provider")
                processor.logger.info("device \(device.registryKey) removed: the provider answered \(reason)")
            case .pauseApp(let reason):
                metrics.failed("credentials")
                let until = now + Int64(processor.settings.pause.components.seconds) * 1000
                processor.pauses.pause(device.pushApp, until: until, reason: reason)
                processor.logger.error("pushes of \(device.pushApp) paused until \(until): the provider refused the credentials (\(reason))")
                addPending(pending(attempt, failures: attempt.failures, due: until, reason: reason), to: &user)
            case .deadLetter(let reason):
                deadLetter(attempt, reason: reason, metric: Self.metricReason(of: response))
            }
            stage(user)
        }

        /// Adds a push to the user's pending ones; past `maxPendingPerUser`, the oldest
        /// pending push is dead-lettered (counted as `pending_cap`), so a user whose
        /// provider keeps failing cannot grow the stage's state without bound.
        private mutating func addPending(_ push: PendingPush, to user: inout UserPushState) {
            user.pending.append(push)
            let cap = max(1, processor.settings.maxPendingPerUser)
            guard user.pending.count > cap else { return }
            for dropped in user.pending.prefix(user.pending.count - cap) {
                guard let device = user.devices[dropped.deviceKey] else { continue }
                deadLetter(
                    dropped.notificationID, device: device, offset: dropped.offset, apns: dropped.apns,
                    reason: "more than \(cap) pushes of user \(user.user) waiting for a retry; the oldest is given up after \(dropped.attempts) attempts: \(dropped.lastReason)",
                    metric: "pending_cap")
            }
            user.pending.removeFirst(user.pending.count - cap)
        }

        private func pending(_ attempt: Attempt, failures: Int, due: Int64, reason: String) -> PendingPush {
            PendingPush(
                deviceKey: attempt.request.device.userKey, notificationID: attempt.request.notificationID, offset: attempt.offset,
                apns: attempt.request.apns, expiration: attempt.request.expiration, createdAt: attempt.createdAt,
                attempts: failures, due: due, lastReason: reason)
        }

        private mutating func deadLetter(_ attempt: Attempt, reason: String, metric: String) {
            deadLetter(
                attempt.request.notificationID, device: attempt.request.device, offset: attempt.offset,
                apns: attempt.request.apns, reason: reason, metric: metric)
        }

        /// A dead letter of one push: the key is the device's `devices` key, the value the
        /// push (`APNsPush`), the source the notification's position.
        private mutating func deadLetter(
            _ notificationID: String, device: Device, offset: Int64, apns: APNsPush, reason: String, metric: String
        ) {
            processor.metrics.failed(metric)
            let source = ConsumedMessage(
                topicPartition: TopicPartition(topics.notifications, processor.partition(of: device.user)), offset: offset,
                key: Data(device.registryKey.utf8), value: try? WireCodec().encode(apns))
            let rejection = Rejection(
                message: source, reason: Rejection.Reason(code: "PUSH_FAILED", "notification \(notificationID) to \(device.registryKey): \(reason)"))
            outputs.append(DeadLetter.message(
                for: rejection, stage: "push", topic: topics.deadLetters, maxBytes: processor.settings.maxInputBytes))
            processor.logger.warning("push of \(notificationID) to \(device.registryKey) dead-lettered: \(reason)")
        }

        private func tombstone(_ device: Device) -> OutgoingMessage {
            OutgoingMessage(topic: topics.devices, partition: processor.partition(of: device.user), key: device.registryKey, value: nil)
        }

        private static func reason(of response: ProviderResponse) -> String {
            switch response {
            case .accepted: "accepted"
            case .rejected(let status, let reason, _, _): "\(status) \(reason)"
            case .unreachable(let why): "unreachable: \(why)"
            }
        }

        private static func metricReason(of response: ProviderResponse) -> String {
            switch response {
            case .accepted: "accepted"
            case .rejected(_, let reason, _, _): reason
            case .unreachable: "unreachable"
            }
        }
    }
}
