import Foundation

/// One (record change, subscription) pair that fired, addressed to one recipient: the
/// value of topic `matches`, keyed by `recipient` so the compose stage sees each user's
/// matches in order.
///
/// `notificationID` is deterministic — UUIDv5 of `changeID/owner/subscriptionID` in
/// `UUID.heraldNamespace` — so replays produce the same ID and the reader drops duplicates,
/// and two users' subscriptions of the same ID get different IDs for the same change.
public struct Match: Sendable, Hashable, Codable {
    /// The user who will receive the notification (the Kafka key).
    public var recipient: String
    public var notificationType: NotificationType
    /// Present exactly for query subscriptions.
    public var queryNotificationReason: QueryNotificationReason?
    public var subscription: Subscription
    public var change: RecordChange
    /// Lower-case UUIDv5 string; see `Match.notificationID(changeID:owner:subscriptionID:)`.
    public var notificationID: String

    /// Creates a match and derives its notification ID.
    public init(
        recipient: String, notificationType: NotificationType, queryNotificationReason: QueryNotificationReason?,
        subscription: Subscription, change: RecordChange
    ) {
        self.recipient = recipient
        self.notificationType = notificationType
        self.queryNotificationReason = queryNotificationReason
        self.subscription = subscription
        self.change = change
        self.notificationID = Match.notificationID(
            changeID: change.changeID, owner: subscription.ownerRecordName, subscriptionID: subscription.subscriptionID)
    }

    /// The Kafka key: the recipient.
    public var partitionKey: String { recipient }

    /// The deterministic notification ID of a change seen by a subscription: the lower-case
    /// UUIDv5 of `"\(changeID)/\(owner)/\(subscriptionID)"` in `UUID.heraldNamespace` (the
    /// owner is the recipient, so each user's subscription of a shared ID gets its own).
    public static func notificationID(changeID: String, owner: String, subscriptionID: String) -> String {
        UUID(version5: "\(changeID)/\(owner)/\(subscriptionID)", namespace: .heraldNamespace).lowercasedString
    }

    /// The ID this match had before subscription IDs were per user (UUIDv5 of
    /// `"\(changeID)/\(subscriptionID)"`): still accepted on decode, and checked by the compose
    /// stage so that a change matched again across the upgrade is not delivered twice.
    public var legacyNotificationID: String { legacyNotificationUUID.lowercasedString }

    /// `legacyNotificationID` as a UUID.
    public var legacyNotificationUUID: UUID {
        UUID(version5: "\(change.changeID)/\(subscription.subscriptionID)", namespace: .heraldNamespace)
    }

    private enum CodingKeys: String, CodingKey {
        case form, recipient, notificationType, queryNotificationReason, subscription, change, notificationID
    }

    /// Decodes and validates either form (see `Match.slimForm`): the recipient is non-empty,
    /// a reason is present exactly for query matches, and `notificationID` is the one derived
    /// from the change and subscription (or, for matches written before per-user IDs,
    /// `legacyNotificationID`). The full form's subscription is checked as a subscription; the
    /// slim form's without its query.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let slim = try Self.isSlim(form: c.decodeIntegerIfPresent(.form))
        recipient = try c.decodeNonEmpty(.recipient)
        notificationType = try c.decode(NotificationType.self, forKey: .notificationType)
        queryNotificationReason = try c.decodeIfPresent(QueryNotificationReason.self, forKey: .queryNotificationReason)
        subscription = slim
            ? try c.decode(SlimSubscription.self, forKey: .subscription).subscription
            : try c.decode(Subscription.self, forKey: .subscription)
        change = try c.decode(RecordChange.self, forKey: .change)
        notificationID = try c.decodeNonEmpty(.notificationID)
        if notificationType == .query, queryNotificationReason == nil {
            throw c.error(.missingValue, "a query match needs a queryNotificationReason", at: .queryNotificationReason)
        }
        if notificationType != .query, queryNotificationReason != nil {
            throw c.error(.invalidValue, "only query matches have a queryNotificationReason", at: .queryNotificationReason)
        }
        if notificationType == .readNotification || notificationType == .scheduled {
            throw c.error(.invalidValue, "a match cannot be a \(notificationType.rawValue) notification", at: .notificationType)
        }
        let expected = Match.notificationID(
            changeID: change.changeID, owner: subscription.ownerRecordName, subscriptionID: subscription.subscriptionID)
        guard notificationID == expected || notificationID == legacyNotificationID else {
            throw c.error(
                .invalidValue, "notificationID \(notificationID) is not the one derived from changeID/owner/subscriptionID (\(expected))",
                at: .notificationID)
        }
    }

    /// Writes the slim form (`slimmed()`, with `form`).
    public func encode(to encoder: any Encoder) throws {
        let slim = slimmed()
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(Self.slimForm, forKey: .form)
        try c.encode(recipient, forKey: .recipient)
        try c.encode(notificationType, forKey: .notificationType)
        try c.encodeIfPresent(queryNotificationReason, forKey: .queryNotificationReason)
        try c.encode(SlimSubscription(slim.subscription), forKey: .subscription)
        try c.encode(slim.change, forKey: .change)
        try c.encode(notificationID, forKey: .notificationID)
    }

    /// `true` for the slim form, `false` for the full form (no `form`, or `null`).
    /// - Throws: `ModelError.unknownValue` at `form` for a form this version does not know.
    static func isSlim(form: Int64?) throws(ModelError) -> Bool {
        guard let form else { return false }
        guard form == slimForm else {
            throw ModelError(
                .unknownValue, "unknown match form \(form); this version reads form \(slimForm) and the full form (no form)",
                path: "form")
        }
        return true
    }
}
