import HeraldKafka
import HeraldModel
import HeraldPush

extension PushProcessor {
    /// Adds to the users of `partitions` every device registered in `devices` (as the
    /// topic's partitions hold them now, latest record per key) that their restored state
    /// does not know yet; returns the users changed.
    ///
    /// After a restart or rebalance the consumer replays `devices` and `notifications` from
    /// the last committed offsets, and a poll may hand over a user's notifications before
    /// the registration that came before them: without this, those notifications would
    /// find no device and never be pushed (the chaos suite's push scenario lost them). The
    /// replayed `devices` records are still applied in order afterwards (`appliedDevices`
    /// is left alone), so the cap and removals work as always; a device registered and
    /// since removed is not added (its latest record is a tombstone).
    func previewDevices(partitions: [Int32]) async throws -> [String: KeyedStateStore<UserPushState>.Entry] {
        guard !partitions.isEmpty else { return [:] }
        let records = try await changelog.read(topic: topics.devices, partitions: partitions)
        let live = states.batch()
        var changed: [String: KeyedStateStore<UserPushState>.Entry] = [:]
        for (key, record) in records.sorted(by: { $0.key < $1.key }) {
            guard let parts = Device.registryKeyParts(key), partition(of: parts.user) == record.partition else { continue }
            // A record the stage would reject is rejected (and dead-lettered) when replayed.
            guard let device = try? settings.rules.decode(record.value), device.registryKey == key else { continue }
            var user = changed[parts.user]?.state ?? live[parts.user] ?? UserPushState(user: parts.user)
            guard user.devices[device.userKey] == nil else { continue }
            user.devices[device.userKey] = device
            changed[parts.user] = .init(state: user, partition: record.partition)
        }
        if !changed.isEmpty {
            states.makeLive(changed)
            logger.info("push stage: \(changed.count) users' registrations taken from devices ahead of the push-state changelog")
        }
        return changed
    }
}
