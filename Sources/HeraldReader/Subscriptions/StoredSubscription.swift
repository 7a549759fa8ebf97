import Foundation

/// One row of a `SubscriptionStore`: a subscription of the compacted `subscriptions` topic
/// as its wire JSON, with the columns that listing an owner's subscriptions, finding
/// duplicates and telling placed records from misplaced copies need. The store never
/// decodes `value`: its user does, for the rows it asked for.
public struct StoredSubscription: Sendable, Hashable {
    /// The identity key (`Subscription.partitionKey`: `container/database/owner/subscriptionID`).
    public var key: String
    /// The owner's scope (`Subscription.placementKey(container:database:owner:)`): listing
    /// reads the rows of one scope only.
    public var owner: String
    /// A digest of the definition without ID (equal definitions, equal digests): the
    /// duplicate check reads the rows of one owner and one digest only.
    public var definition: String
    /// The partition the record was read from when that is not its placement partition
    /// (a copy written before placement); `nil`: placed.
    public var misplacedPartition: Int32?
    /// The key before per-user IDs (`Subscription.legacyPartitionKey`) the current record
    /// was read under; `nil`: its own key.
    public var oldKey: String?
    /// The subscription as on the topic (`WireCodec` JSON).
    public var value: Data

    /// Creates a row.
    public init(key: String, owner: String, definition: String, misplacedPartition: Int32? = nil, oldKey: String? = nil, value: Data) {
        self.key = key
        self.owner = owner
        self.definition = definition
        self.misplacedPartition = misplacedPartition
        self.oldKey = oldKey
        self.value = value
    }
}
