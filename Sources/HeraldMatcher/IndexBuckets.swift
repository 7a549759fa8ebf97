import HeraldModel

// The keys `SubscriptionIndex` files subscriptions under and looks record changes up by.
// Each has one initializer from a subscription (where it is filed) and one from a change
// (where the matcher looks): a subscription can fire for a change only when both give the
// same key, which is also how `SubscriptionIndex.explain` finds the rule a miss breaks.

/// Query subscriptions: container, database, record type, and the owner in private databases.
///
/// Hashed by a fingerprint of its strings taken with `PostingHasher` (their NFC bytes, a
/// multiplication per eight), so a `Dictionary` lookup feeds SipHash one word: hashing the
/// three strings with SipHash was the change's bucket lookup's ~1,250 instructions, 6% of
/// matching a change at 100k subscriptions.
struct QueryBucket: Hashable {
    let container: String
    let database: DatabaseScope
    let recordType: String
    /// The owner in private databases (only zones they own are visible); `nil` in public.
    let owner: String?
    /// Equal for equal buckets (canonically equivalent strings have the same NFC bytes).
    private let fingerprint: UInt64

    /// Seeded once per process, so which buckets share a fingerprint cannot be chosen.
    private static let hasher = PostingHasher()

    init(_ subscription: Subscription) {
        self.init(
            container: subscription.container, database: subscription.database,
            recordType: subscription.query?.recordType ?? "",
            owner: subscription.database == .public ? nil : subscription.ownerRecordName)
    }

    /// `borrowing`: an initializer owns its arguments, so the change was copied for it (a
    /// dozen strings retained, then released: ~540 instructions a change).
    init(_ change: borrowing RecordChange) {
        self.init(
            container: change.container, database: change.database, recordType: change.recordType,
            owner: change.database == .public ? nil : change.zoneID.ownerRecordName)
    }

    private init(container: String, database: DatabaseScope, recordType: String, owner: String?) {
        self.container = container
        self.database = database
        self.recordType = recordType
        self.owner = owner
        let hasher = Self.hasher
        // The probe number tells the parts apart; the database is a tag of the owner's hash.
        let ownerHash = owner.map { hasher.hash(3, string: $0) } ?? 0
        fingerprint = PostingWords.mix(
            hasher.hash(1, string: container) ^ PostingWords.mix(hasher.hash(2, string: recordType), 0x9e37_79b9_7f4a_7c15),
            ownerHash ^ UInt64(database.tag) &+ 0x8ebc_6af0_9c88_c6e3)
    }

    static func == (a: QueryBucket, b: QueryBucket) -> Bool {
        a.fingerprint == b.fingerprint && a.database == b.database && a.recordType == b.recordType
            && a.container == b.container && a.owner == b.owner
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(fingerprint)
    }
}

private extension DatabaseScope {
    var tag: UInt8 {
        switch self {
        case .public: 1
        case .private: 2
        case .shared: 3
        }
    }
}

/// Zone subscriptions: container and zone.
struct ZoneBucket: Hashable {
    var container: String
    var zone: ZoneID

    init(_ subscription: Subscription) {
        container = subscription.container
        zone = subscription.zoneID ?? ZoneID(zoneName: "", ownerRecordName: "")
    }

    init(_ change: RecordChange) {
        container = change.container
        zone = change.zoneID
    }
}

/// Database subscriptions: container, database and owner (a change is looked up once per
/// owner of its audience, `MatchRules.databaseAudience`).
struct DatabaseBucket: Hashable {
    var container: String
    var database: DatabaseScope
    var owner: String

    init(_ subscription: Subscription) {
        container = subscription.container
        database = subscription.database
        owner = subscription.ownerRecordName
    }

    init(_ change: RecordChange, recipient: String) {
        container = change.container
        database = change.database
        owner = recipient
    }
}
