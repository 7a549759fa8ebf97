import Foundation
import HeraldKafka
import HeraldModel
import HeraldScheduler

extension ScheduleProcessor {
    /// One batch's (or tick's) work: the users' states as they change, and the messages
    /// to produce.
    struct Work {
        let processor: ScheduleProcessor
        var states: StagedStates<UserSchedules>
        let now: Int64
        let codec = WireCodec()
        var outputs: [OutgoingMessage] = []

        init(processor: ScheduleProcessor, states: StagedStates<UserSchedules>, now: Int64) {
            self.processor = processor
            self.states = states
            self.now = now
        }

        private var topics: TopicNames { processor.topics }

        func state(_ recipient: String) -> UserSchedules {
            states[recipient] ?? UserSchedules(recipient: recipient)
        }

        /// Applies one input message; returns what it produces.
        mutating func apply(_ message: ConsumedMessage) throws(Rejection.Reason) -> [OutgoingMessage] {
            if let value = message.value, value.count > processor.maxInputBytes {
                throw .tooLarge("\(message.topic) record of \(value.count) bytes exceeds \(processor.maxInputBytes)")
            }
            let position = message.position
            switch try processor.routes.role(of: message) {
            case .schedules: return try applySchedule(message, at: position)
            case .locations: return try applyLocation(message, at: position)
            }
        }

        private mutating func applySchedule(
            _ message: ConsumedMessage, at position: InputPosition
        ) throws(Rejection.Reason) -> [OutgoingMessage] {
            guard let key = message.keyString else {
                throw .invalid("a schedule record needs the key container/recipient/scheduleID")
            }
            let parts = key.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty }) else {
                throw .invalid("schedule key '\(key)' is not container/recipient/scheduleID")
            }
            let recipient = String(parts[1])
            try checkPlacement(message, recipient: recipient)
            var user = state(recipient)
            let outcome: ScheduleOutcome
            if let value = message.value {
                let schedule: Schedule
                do { schedule = try codec.decode(Schedule.self, from: value) } catch { throw .undecodable("\(error)") }
                guard schedule.partitionKey == key else {
                    throw .invalid("key '\(key)' is not the schedule's own key '\(schedule.partitionKey)'")
                }
                outcome = user.apply(
                    schedule, at: position, now: now, userZone: processor.zone(of: recipient), receivedAt: message.timestamp)
            } else {
                user.remove(key, at: position)
                outcome = ScheduleOutcome()
            }
            let outputs = try messages(for: outcome, partition: message.partition)
            states.stage(user, on: message.partition)
            return outputs
        }

        private mutating func applyLocation(
            _ message: ConsumedMessage, at position: InputPosition
        ) throws(Rejection.Reason) -> [OutgoingMessage] {
            guard let value = message.value else { throw .invalid("a location record cannot be null") }
            let location: DeviceLocation
            do { location = try codec.decode(DeviceLocation.self, from: value) } catch { throw .undecodable("\(error)") }
            if let key = message.keyString, key != location.recipient {
                throw .invalid("key '\(key)' is not the location's recipient '\(location.recipient)'")
            }
            try checkPlacement(message, recipient: location.recipient)
            var user = state(location.recipient)
            let outcome = user.observe(location, at: position)
            let outputs = try messages(for: outcome, partition: message.partition)
            states.stage(user, on: message.partition)
            return outputs
        }

        /// A tick for one user: recompute floating schedules if their zone changed, then
        /// fire what is due.
        /// - Throws: `PipelineError` when a firing does not encode (the tick is retried, loudly).
        mutating func fire(_ recipient: String, zoneChanged: Bool) throws(PipelineError) {
            guard states[recipient] != nil else { return }
            let before = state(recipient)
            var user = before
            var outcome = ScheduleOutcome()
            if zoneChanged {
                outcome = user.timeZoneChanged(to: processor.zone(of: recipient), now: now)
            }
            let due = user.fireDue(now: now)
            outcome.firings += due.firings
            outcome.finished += due.finished
            outcome.discarded += due.discarded
            // Restored users are all checked against their zone once: write only those that changed.
            guard user != before || !outcome.isEmpty else { return }
            let partition = processor.livePartition(of: recipient)
            do throws(Rejection.Reason) {
                outputs += try messages(for: outcome, partition: partition)
            } catch {
                throw PipelineError(code: .input, reason: error.text, location: "schedules of \(recipient)")
            }
            states.stage(user, on: partition)
        }

        /// The firings and retired schedules of an outcome. A firing that does not encode is
        /// never skipped: the input is rejected (or, on a tick, the tick fails).
        private func messages(for outcome: ScheduleOutcome, partition: Int32) throws(Rejection.Reason) -> [OutgoingMessage] {
            var messages: [OutgoingMessage] = []
            for firing in outcome.firings {
                let value: Data
                do { value = try codec.encode(firing) } catch { throw .invalid("a firing of \(firing.recipient) does not encode: \(error)") }
                messages.append(OutgoingMessage(topic: topics.scheduleFirings, key: firing.recipient, value: value))
            }
            for key in outcome.finished + outcome.discarded {
                messages.append(OutgoingMessage(topic: topics.schedules, partition: partition, key: key, value: nil))
            }
            return messages
        }

        /// Input must sit on its recipient's partition, where this user's state lives.
        private func checkPlacement(_ message: ConsumedMessage, recipient: String) throws(Rejection.Reason) {
            let expected = processor.partition(of: recipient)
            guard message.partition == expected else {
                throw .invalid(
                    "\(message.topic) record for user '\(recipient)' is on partition \(message.partition), but belongs on partition \(expected) (murmur2 of the recipient, as the Java client's default partitioner)")
            }
        }
    }
}
