import HeraldModel
import HeraldPush
import Synchronization

@testable import HeraldAPI

/// Devices in memory, as the API's table would hold them after its own writes.
final class InMemoryDevices: DeviceRegistry {
    let rules: DeviceRules
    private let stored = Mutex<[String: Device]>([:])

    init(rules: DeviceRules = DeviceRules()) { self.rules = rules }

    /// Every stored device by `registryKey`.
    var all: [String: Device] { stored.withLock { $0 } }

    func devices(user: String) -> [Device] { stored.withLock { $0.values.filter { $0.user == user } } }

    func register(_ device: Device) async throws { stored.withLock { $0[device.registryKey] = device } }

    func remove(_ device: Device) async throws { _ = stored.withLock { $0.removeValue(forKey: device.registryKey) } }
}
