import HeraldModel

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
}
