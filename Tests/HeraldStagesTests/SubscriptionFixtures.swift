import HeraldKafka
import HeraldModel
import HeraldStages

/// Subscriptions for the tests of subscription keys.
enum SubscriptionFixtures {
    static let container = "iCloud.com.example.notes"

    /// A public query subscription on `Note` records, fired on create.
    static func publicNote(_ id: String, owner: String, predicate: String = "TRUEPREDICATE") -> Subscription {
        Subscription(
            subscriptionID: id, subscriptionType: .query, container: container, database: .public,
            ownerRecordName: owner, query: SubscriptionQuery(recordType: "Note", predicate: predicate), firesOn: [.create])
    }

    /// The key `id` had in the public database before subscription IDs were per user.
    static func oldKey(_ id: String) -> String { "\(container)/public/\(id)" }

    /// Each subscription on its placement partition of `topic` under its key, as the API
    /// writes them; `tombstones`: each one's tombstone instead.
    static func placed(
        _ subscriptions: [Subscription], on topic: String, partitions: Int32, tombstones: Bool = false
    ) throws -> [OutgoingMessage] {
        let placement = SubscriptionPlacement(partitions: partitions)
        return try subscriptions.map {
            OutgoingMessage(
                topic: topic, partition: placement.partition(of: $0), key: $0.partitionKey,
                value: tombstones ? nil : try WireCodec().encode($0))
        }
    }
}
