import Foundation
import HeraldKafka
import HeraldModel
import Synchronization

/// Every pending schedule, from the compacted `schedules` topic (a `CompactedTopicFollower`
/// on every API instance), for listing them and for the 64 limit when one is added. Once
/// schedules are tombstoned by the schedule stage when they finish or are discarded.
///
/// Safe to use from any thread: the tables live behind one lock.
public final class ScheduleTable: Sendable {
    private struct Tables {
        var byKey: [String: Schedule] = [:]
        /// `recipient` → `container` → keys.
        var byUser: [String: [String: Set<String>]] = [:]
    }

    private let tables = Mutex(Tables())
    /// Opens once the follower caught up with the topic.
    public let gate = ReadyGate()

    /// An empty table.
    public init() {}

    /// How many schedules it holds.
    public var count: Int { tables.withLock { $0.byKey.count } }

    /// The schedule stored under `key` (`container/recipient/scheduleID`), if any.
    public func schedule(forKey key: String) -> Schedule? { tables.withLock { $0.byKey[key] } }

    /// Every schedule `recipient` has in `container`, in any order.
    public func schedules(recipient: String, container: String) -> [Schedule] {
        tables.withLock { tables in
            (tables.byUser[recipient]?[container] ?? []).compactMap { tables.byKey[$0] }
        }
    }

    /// Applies one record of the topic: a schedule stored under its key, or a tombstone.
    /// - Throws: `Rejection.Reason` for a record without a key, undecodable, or stored under
    ///   another key than its own (nothing changes).
    public func apply(_ message: ConsumedMessage) throws(Rejection.Reason) {
        guard let key = message.keyString else { throw .invalid("a schedule record needs a key container/recipient/scheduleID") }
        guard let value = message.value else {
            remove(key: key)
            return
        }
        let schedule: Schedule
        do { schedule = try WireCodec().decode(Schedule.self, from: value) } catch { throw .undecodable("\(error)") }
        guard schedule.partitionKey == key else {
            throw .invalid("key '\(key)' is not the schedule's own key '\(schedule.partitionKey)'")
        }
        put(schedule)
    }

    /// Stores a schedule (the API does it right after publishing, so a GET sees it at once).
    public func put(_ schedule: Schedule) {
        tables.withLock { tables in
            let key = schedule.partitionKey
            tables.byKey[key] = schedule
            tables.byUser[schedule.recipient, default: [:]][schedule.container, default: []].insert(key)
        }
    }

    /// Forgets the schedule stored under `key`.
    public func remove(key: String) {
        tables.withLock { tables in
            guard let schedule = tables.byKey.removeValue(forKey: key) else { return }
            tables.byUser[schedule.recipient]?[schedule.container]?.remove(key)
            if tables.byUser[schedule.recipient]?[schedule.container]?.isEmpty == true {
                tables.byUser[schedule.recipient]?[schedule.container] = nil
            }
            if tables.byUser[schedule.recipient]?.isEmpty == true { tables.byUser[schedule.recipient] = nil }
        }
    }
}
