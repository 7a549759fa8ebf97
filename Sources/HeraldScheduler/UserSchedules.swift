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
    public var recipient: String
    /// The armed schedules by `Schedule.partitionKey`.
    public var schedules: [String: ArmedSchedule]
    /// The last offset applied from each input partition.
    public var appliedOffsets: AppliedOffsets

    /// An empty state for `recipient`.
    public init(recipient: String) {
        self.recipient = recipient
        self.schedules = [:]
        self.appliedOffsets = AppliedOffsets()
    }

    /// The Kafka key: the recipient.
    public var partitionKey: String { recipient }

    /// The earliest next fire instant of the dated schedules: when `fireDue` has work.
    public var nextDeadline: Int64? { schedules.values.compactMap(\.nextFire).min() }

    /// Cancels a schedule (a tombstone on `schedules`).
    /// - Returns: whether it was armed; `false` too for a replay.
    @discardableResult
    public mutating func remove(_ key: String, at position: InputPosition) -> Bool {
        guard appliedOffsets.insert(position) else { return false }
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
        appliedOffsets = try c.decodeIfPresent(AppliedOffsets.self, forKey: .appliedOffsets) ?? AppliedOffsets()
    }
}
