import Foundation
import HeraldKafka
import HeraldModel
import HeraldPush
import Synchronization

/// Every registered device, from the compacted `devices` topic (a `CompactedTopicFollower`
/// on every API instance), for listing a user's devices and for the per-user cap when one
/// is added. The push stage holds only its own users' devices, in its state; this table is
/// the API's.
///
/// Safe to use from any thread: the tables live behind one lock.
public final class DeviceTable: Sendable {
    private struct Tables {
        /// By `registryKey` (`container/user/token`).
        var byKey: [String: Device] = [:]
        /// `user` → keys.
        var byUser: [String: Set<String>] = [:]
    }

    private let tables = Mutex(Tables())
    /// The rules a record must pass to be stored.
    public let rules: DeviceRules
    /// Opens once the follower caught up with the topic.
    public let gate = ReadyGate()

    public init(rules: DeviceRules = DeviceRules()) { self.rules = rules }

    /// How many devices it holds.
    public var count: Int { tables.withLock { $0.byKey.count } }

    /// The device stored under `key`, if any.
    public func device(forKey key: String) -> Device? { tables.withLock { $0.byKey[key] } }

    /// Every device of `user`, in every container, in any order.
    public func devices(user: String) -> [Device] {
        tables.withLock { tables in (tables.byUser[user] ?? []).compactMap { tables.byKey[$0] } }
    }

    /// Applies one record of the topic: a device stored under its key, or a tombstone.
    /// - Throws: `Rejection.Reason` for a record without a key, invalid, or stored under
    ///   another key than its own (nothing changes).
    public func apply(_ message: ConsumedMessage) throws(Rejection.Reason) {
        guard let key = message.keyString else { throw .invalid("a devices record needs a key container/user/token") }
        guard let value = message.value else {
            remove(key: key)
            return
        }
        let device: Device
        do throws(PushError) { device = try rules.decode(value) } catch {
            throw Rejection.Reason(code: error.code.rawValue, error.description)
        }
        guard device.registryKey == key else { throw .invalid("key '\(key)' is not the device's own key '\(device.registryKey)'") }
        put(device)
    }

    /// Stores a device (the API does it right after publishing, so a GET sees it at once).
    public func put(_ device: Device) {
        tables.withLock { tables in
            tables.byKey[device.registryKey] = device
            tables.byUser[device.user, default: []].insert(device.registryKey)
        }
    }

    /// Forgets the device stored under `key`.
    public func remove(key: String) {
        tables.withLock { tables in
            guard let device = tables.byKey.removeValue(forKey: key) else { return }
            tables.byUser[device.user]?.remove(key)
            if tables.byUser[device.user]?.isEmpty == true { tables.byUser[device.user] = nil }
        }
    }
}
