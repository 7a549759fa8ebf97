import Foundation
import HeraldKafka
import HeraldModel
import HeraldPush
import HeraldStages

/// Devices and notifications of the push tests, as records and as consumed messages.
struct PushMessages {
    static let container = "iCloud.com.example.notes"
    static let bundleID = "com.example.notes"
    let names: TopicNames
    let partitions: Int32

    init(catalog: TopicCatalog) {
        names = catalog.names
        partitions = catalog.partitions
    }

    /// A 64-digit APNs token made from `seed`.
    static func apnsToken(_ seed: Int) -> String {
        let hex = String(seed, radix: 16)
        return String(repeating: "0", count: 64 - hex.count) + hex
    }

    /// An FCM registration token made from `seed`.
    static func fcmToken(_ seed: Int) -> String { "fcm\(seed):APA91b" + String(repeating: "x", count: 140) }

    static func device(_ token: String, user: String = "_u1", platform: Device.Platform = .apns, registeredAt: Int64 = 1_000)
        -> Device
    {
        Device(
            token: token, user: user, container: container, platform: platform,
            environment: platform == .apns ? .production : nil, topic: platform == .apns ? bundleID : nil,
            appID: platform == .fcm ? "1:123:android:abc" : nil, registeredAt: registeredAt)
    }

    static func notification(
        _ id: String, user: String = "_u1", type: NotificationType = .query, excluding excluded: String? = nil,
        createdAt: Int64 = 1_000, sequence: Int64? = nil
    ) -> HeraldNotification {
        var notification = HeraldNotification(
            notificationID: id, notificationType: type, containerIdentifier: container, recipient: user,
            sequence: sequence ?? Self.sequence(of: id),
            createdAt: createdAt, subscriptionID: "s1")
        notification.queryNotificationReason = .recordCreated
        notification.recordID = RecordID(recordName: "r-\(id)", zoneID: ZoneID(zoneName: "Notes", ownerRecordName: user))
        notification.databaseScope = .private
        notification.excludedDevice = excluded
        if type != .readNotification {
            notification.apns = APNsPush(
                pushType: .alert, priority: .immediate, payload: .object(["aps": .object(["alert": .string("hi \(id)")])]))
        }
        return notification
    }

    /// The number an ID ends with (`n4` → 4; 1 without one): as compose numbers a user's
    /// notifications, the same ID always gets the same sequence, and `n1`, `n2`, … ascend.
    static func sequence(of id: String) -> Int64 {
        Int64(String(id.reversed().prefix { $0.isNumber }.reversed())) ?? 1
    }

    func partition(of user: String) -> Int32 { KeyPartitioner.partition(of: user, partitions: partitions) }

    /// The `devices` record registering `device` (null value: `removing`).
    func record(_ device: Device, removing: Bool = false) throws -> OutgoingMessage {
        OutgoingMessage(
            topic: names.devices, partition: partition(of: device.user), key: device.registryKey,
            value: removing ? nil : try WireCodec().encode(device))
    }

    /// The `notifications` record of `notification`.
    func record(_ notification: HeraldNotification) throws -> OutgoingMessage {
        OutgoingMessage(
            topic: names.notifications, partition: partition(of: notification.recipient), key: notification.recipient,
            value: try WireCodec().encode(notification))
    }

    /// A record as the stage would consume it at `offset`.
    func consumed(_ record: OutgoingMessage, offset: Int64) -> ConsumedMessage {
        ConsumedMessage(
            topicPartition: TopicPartition(record.topic, record.partition ?? 0), offset: offset, key: record.key,
            value: record.value)
    }

    /// A `record-changes` record creating a Note in `_u1`'s private Notes zone (the pipeline
    /// tests' one change).
    static func noteCreated(catalog: TopicCatalog) -> OutgoingMessage {
        OutgoingMessage(
            topic: catalog.name(TopicCatalog.recordChanges), key: "zone",
            value: Data("""
                {"changeID": "c1", "container": "\(container)", "database": "private",
                 "zoneID": {"zoneName": "Notes", "ownerRecordName": "_u1"}, "recordType": "Note", "recordName": "n1",
                 "kind": "create", "fields": {"title": {"value": "T", "type": "STRING"}}, "timestamp": 1795300000000}
                """.utf8))
    }
}
