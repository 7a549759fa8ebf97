import Foundation
import HeraldModel

/// What the schedule stage keeps per user: their armed schedules and the last input
/// offset applied per topic partition. It is the value of the compacted changelog topic
/// `schedule-state` (key = recipient), written with every batch's outputs, so a restart
/// or a new partition owner restores it and never applies an input twice.
///
/// Every operation is pure: it takes the current time (`now`, milliseconds since 1970)
/// and the user's zone as arguments and returns a `ScheduleOutcome`.
public struct UserSchedules: Sendable, Hashable, Codable {
    /// Where an input came from: its topic partition (`source`, `topic#partition`) and offset.
    public struct Position: Sendable, Hashable {
        public var source: String
        public var offset: Int64

        /// The position of the message at `offset` in partition `partition` of `topic`.
        public init(topic: String, partition: Int32, offset: Int64) {
            self.source = "\(topic)#\(partition)"
            self.offset = offset
        }
    }

    public var recipient: String
    /// The armed schedules by `Schedule.partitionKey`.
    public var schedules: [String: ArmedSchedule]
    /// The last offset applied from each input, by `topic#partition`.
    public var appliedOffsets: [String: Int64]

    /// An empty state for `recipient`.
    public init(recipient: String) {
        self.recipient = recipient
        self.schedules = [:]
        self.appliedOffsets = [:]
    }

    /// The Kafka key: the recipient.
    public var partitionKey: String { recipient }

    /// The earliest next fire instant of the dated schedules: when `fireDue` has work.
    public var nextDeadline: Int64? { schedules.values.compactMap(\.nextFire).min() }

    /// Whether the input at this position was already applied (a replay).
    public func hasApplied(_ position: Position) -> Bool {
        guard let last = appliedOffsets[position.source] else { return false }
        return position.offset <= last
    }

    /// Records the input at this position as applied.
    public mutating func markApplied(_ position: Position) {
        appliedOffsets[position.source] = max(position.offset, appliedOffsets[position.source] ?? -1)
    }

    /// Cancels a schedule (a tombstone on `schedules`).
    /// - Returns: whether it was armed; `false` too for a replay.
    @discardableResult
    public mutating func remove(_ key: String, at position: Position) -> Bool {
        guard !hasApplied(position) else { return false }
        markApplied(position)
        return schedules.removeValue(forKey: key) != nil
    }

    private enum CodingKeys: String, CodingKey { case recipient, schedules, appliedOffsets }

    /// Decodes and validates: a non-empty recipient, schedules stored under their own
    /// key and addressed to this recipient.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        recipient = try c.decode(String.self, forKey: .recipient)
        guard !recipient.isEmpty else {
            throw ModelError(.invalidValue, "must not be empty", at: c.codingPath + [CodingKeys.recipient])
        }
        schedules = try c.decodeIfPresent([String: ArmedSchedule].self, forKey: .schedules) ?? [:]
        for (key, armed) in schedules where armed.schedule.partitionKey != key || armed.schedule.recipient != recipient {
            throw ModelError(
                .invalidValue, "holds schedule \(armed.schedule.partitionKey), not one of \(recipient)'s under this key",
                at: c.codingPath + [CodingKeys.schedules, WireKey(key)])
        }
        appliedOffsets = try c.decodeIfPresent([String: Int64].self, forKey: .appliedOffsets) ?? [:]
    }
}
