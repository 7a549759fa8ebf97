extension Subscription {
    /// The key whose partition (murmur2, as every Herald producer) holds this subscription on
    /// the `subscriptions` topic, so that the match instance consuming the record changes that
    /// can fire it holds it too (docs/ARCHITECTURE.md §9):
    /// - private: `container/private/owner`, the `RecordChange.partitionKey` of the owner's
    ///   changes (a private subscription only sees zones its owner owns);
    /// - shared: `container/shared/owner`, where the match stage forwards each shared change
    ///   for every participant it names;
    /// - public: the subscription's own key, spreading public subscriptions over the
    ///   partitions (every partition sees each public change).
    public var placementKey: String {
        switch database {
        case .private, .shared: Self.placementKey(container: container, database: database, owner: ownerRecordName)
        case .public: partitionKey
        }
    }

    /// The placement key of the private- or shared-database subscriptions of `owner`, equal
    /// to the `RecordChange.partitionKey` of a change in a zone `owner` owns.
    public static func placementKey(container: String, database: DatabaseScope, owner: String) -> String {
        "\(container)/\(database.rawValue)/\(owner)"
    }
}
