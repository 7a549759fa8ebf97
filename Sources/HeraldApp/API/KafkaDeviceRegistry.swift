import Foundation
import HeraldAPI
import HeraldKafka
import HeraldModel
import HeraldPush
import HeraldStages

/// The API's push devices: records to the compacted `devices` topic, one per device
/// (`container/user/token`) on its user's partition (`KeyPartitioner`), so two API
/// instances registering two devices of one user at once never overwrite each other, and
/// the push stage finds them with the user's notifications. The table (filled by a
/// follower of the whole topic) takes each change at once for read-your-writes.
struct KafkaDeviceRegistry: DeviceRegistry {
    let producer: KafkaProducer
    let catalog: TopicCatalog
    let table: DeviceTable

    var rules: DeviceRules { table.rules }

    func devices(user: String) -> [Device] { table.devices(user: user) }

    func register(_ device: Device) async throws {
        try await send(device, value: try WireCodec().encode(device))
        table.put(device)
    }

    func remove(_ device: Device) async throws {
        try await send(device, value: nil)
        table.remove(key: device.registryKey)
    }

    private func send(_ device: Device, value: Data?) async throws {
        _ = try await producer.send([OutgoingMessage(
            topic: catalog.name(TopicCatalog.devices),
            partition: KeyPartitioner.partition(of: device.user, partitions: catalog.partitions), key: device.registryKey,
            value: value)])
    }
}
