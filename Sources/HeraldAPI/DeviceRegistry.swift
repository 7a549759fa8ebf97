import HeraldModel
import HeraldPush

/// Where the API reads and writes push devices: the compacted `devices` topic and a table
/// following it. The pipeline implements it with a Kafka producer; tests with memory.
/// Called concurrently from request handlers.
public protocol DeviceRegistry: Sendable {
    /// The token rules and the per-user cap.
    var rules: DeviceRules { get }
    /// Every device of `user`, in every container, in any order (it may lag the topic,
    /// except for what this instance just wrote).
    func devices(user: String) -> [Device]
    /// Writes `device` under its `registryKey`, on its user's partition; returns once acknowledged.
    func register(_ device: Device) async throws
    /// Writes a tombstone for `device`'s key, on its user's partition.
    func remove(_ device: Device) async throws
}
