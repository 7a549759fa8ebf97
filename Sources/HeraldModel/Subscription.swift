import Foundation

/// A saved subscription, as held on the compacted `subscriptions` topic (docs/ARCHITECTURE.md §5.2).
///
/// Keyed by `partitionKey` (`container/database/owner/subscriptionID`: docs/cloudkit-behaviour.md §1, IDs are
/// per user); a null value deletes it. Topics written before per-user IDs hold
/// `legacyPartitionKey` (`container/database/subscriptionID`), which readers still accept.
/// Decoding enforces the CloudKit shape (docs/cloudkit-behaviour.md §1): which types live in which
/// database, a query for query subscriptions, a zone for zone subscriptions, and at
/// least one event in `firesOn` for query subscriptions, without repeats. `enter` and/or
/// `leave` alone are allowed (docs/cloudkit-behaviour.md §1, Decision): such a subscription
/// fires only on updates that carry the record before the change.
public struct Subscription: Sendable, Hashable, Codable {
    /// The kind of subscription.
    public enum SubscriptionType: String, WireEnum {
        /// A record type and predicate (public and private databases).
        case query
        /// Every change in one zone (private database).
        case zone
        /// Every change in the custom zones of a database (private and shared databases).
        case database

        public static var wireName: String { "subscriptionType" }

        /// Whether this type may be saved in `database` (docs/cloudkit-behaviour.md §1 table).
        public func isAllowed(in database: DatabaseScope) -> Bool {
            switch (self, database) {
            case (.query, .public), (.query, .private), (.zone, .private), (.database, .private), (.database, .shared):
                true
            default:
                false
            }
        }
    }

    /// What a query subscription fires on.
    public enum Event: String, WireEnum {
        case create, update, delete
        /// The record matches after an update but did not before (needs `previousFields`).
        case enter
        /// The record matched before an update but does not after (needs `previousFields`).
        case leave

        public static var wireName: String { "firesOn event" }
    }

    public var subscriptionID: String
    public var subscriptionType: SubscriptionType
    public var container: String
    public var database: DatabaseScope
    /// The user who saved it and receives its notifications.
    public var ownerRecordName: String
    /// Required for query subscriptions, absent otherwise.
    public var query: SubscriptionQuery?
    /// Required for zone subscriptions; limits a query subscription to one zone.
    public var zoneID: ZoneID?
    /// Query subscriptions only; absent on the wire = empty.
    public var firesOn: [Event]
    /// Retire the subscription after its first notification.
    public var firesOnce: Bool
    public var notificationInfo: NotificationInfo
    /// Which save of the subscription this is: a new value on every save (the API gives the
    /// save time in microseconds, increasing; `nil` from producers that set none). Compose
    /// remembers a fired fires-once subscription by its key and revision, so one saved again
    /// under the same ID after it fired is a new subscription and fires again
    /// (docs/cloudkit-behaviour.md §1).
    public var revision: Int64?

    /// Creates a subscription (not validated: validation happens on decode).
    public init(
        subscriptionID: String, subscriptionType: SubscriptionType, container: String, database: DatabaseScope,
        ownerRecordName: String, query: SubscriptionQuery? = nil, zoneID: ZoneID? = nil, firesOn: [Event] = [],
        firesOnce: Bool = false, notificationInfo: NotificationInfo = NotificationInfo(), revision: Int64? = nil
    ) {
        self.subscriptionID = subscriptionID
        self.subscriptionType = subscriptionType
        self.container = container
        self.database = database
        self.ownerRecordName = ownerRecordName
        self.query = query
        self.zoneID = zoneID
        self.firesOn = firesOn
        self.firesOnce = firesOnce
        self.notificationInfo = notificationInfo
        self.revision = revision
    }

    /// The Kafka key and the subscription's identity (docs/cloudkit-behaviour.md §1):
    /// `container/database/ownerRecordName/subscriptionID`.
    public var partitionKey: String { Self.key(container: container, database: database, owner: ownerRecordName, id: subscriptionID) }

    /// The key of the same subscription before IDs were per user: `container/database/subscriptionID`.
    /// Still read from the compacted topic (`herald subscriptions migrate` rewrites it).
    public var legacyPartitionKey: String { "\(container)/\(database.rawValue)/\(subscriptionID)" }

    /// The identity key of subscription `id` of `owner` in `container` and `database`. A `/`
    /// or `%` in the owner is percent-escaped, so that no two identities share a key (owner
    /// `a/b` with ID `c` against owner `a` with ID `b/c`); record names never hold either.
    public static func key(container: String, database: DatabaseScope, owner: String, id: String) -> String {
        // Read as UTF-8 bytes, not `Character`s (no grapheme breaking): a match instance makes
        // this key for each of a million subscriptions it loads. `/` and `%` are ASCII.
        let escaped = owner.utf8.contains(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "%") })
            ? owner.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "/", with: "%2F")
            : owner
        return "\(container)/\(database.rawValue)/\(escaped)/\(id)"
    }

    /// Why a query subscription with an empty `firesOn` is refused (shared with the matcher's rules).
    public static let emptyFiresOnReason = "a query subscription fires on at least one of create, update, delete, enter, leave"

    private enum CodingKeys: String, CodingKey {
        case subscriptionID, subscriptionType, container, database, ownerRecordName, query, zoneID
        case firesOn, firesOnce, notificationInfo, revision
    }

    /// Decodes and validates (see the type's documentation).
    /// - Throws: `ModelError` (or `DecodingError`, which `WireCodec` translates) at the offending path.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        subscriptionID = try c.decodeNonEmpty(.subscriptionID)
        subscriptionType = try c.decode(SubscriptionType.self, forKey: .subscriptionType)
        container = try c.decodeNonEmpty(.container)
        database = try c.decode(DatabaseScope.self, forKey: .database)
        guard subscriptionType.isAllowed(in: database) else {
            throw c.error(
                .invalidValue, "\(subscriptionType.rawValue) subscriptions are not allowed in the \(database.rawValue) database",
                at: .subscriptionType)
        }
        ownerRecordName = try c.decodeNonEmpty(.ownerRecordName)
        query = try c.decodeIfPresent(SubscriptionQuery.self, forKey: .query)
        zoneID = try c.decodeIfPresent(ZoneID.self, forKey: .zoneID)
        firesOn = try c.decodeIfPresent([Event].self, forKey: .firesOn) ?? []
        firesOnce = try c.decodeIfPresent(Bool.self, forKey: .firesOnce) ?? false
        notificationInfo = try c.decodeIfPresent(NotificationInfo.self, forKey: .notificationInfo) ?? NotificationInfo()
        revision = try c.decodeNonNegativeIfPresent(.revision)
        try validateShape(c)
    }

    private func validateShape(_ c: KeyedDecodingContainer<CodingKeys>) throws {
        switch subscriptionType {
        case .query:
            guard query != nil else { throw c.error(.missingValue, "a query subscription needs a query", at: .query) }
            guard !firesOn.isEmpty else {
                throw c.error(.invalidValue, Self.emptyFiresOnReason, at: .firesOn)
            }
            if let duplicate = firesOn.enumerated().first(where: { firesOn.firstIndex(of: $0.element) != $0.offset }) {
                throw ModelError(
                    .invalidValue, "duplicate event \"\(duplicate.element.rawValue)\"",
                    at: c.codingPath + [CodingKeys.firesOn, WireKey(index: duplicate.offset)])
            }
        case .zone, .database:
            if query != nil {
                throw c.error(.invalidValue, "only query subscriptions have a query", at: .query)
            }
            if subscriptionType == .zone, zoneID == nil {
                throw c.error(.missingValue, "a zone subscription needs a zoneID", at: .zoneID)
            }
        }
    }
}
