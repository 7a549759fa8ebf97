import HeraldModel
import HeraldReader

// The small JSON bodies the routes read and answer (beyond the model's own types).

/// `POST notifications/changes` body; every key optional, an empty body is `{}`.
struct FetchChangesRequest: Decodable, Sendable, Equatable {
    /// The token of the previous page; absent or `null`: from the oldest retained.
    var serverChangeToken: ChangeToken?
    /// Page size: default 200, at most 400 (larger is clamped), at least 1.
    var resultsLimit: Int?
    /// Whether read notifications come back (as `readNotification`); default true.
    var includeRead: Bool?
}

/// `POST notifications/read` body and answer.
struct MarkReadRequest: Codable, Sendable {
    var notificationIDs: [String]
}

/// `GET badge` answer and `POST badge` body.
struct BadgeBody: Codable, Sendable {
    var badge: Int
}

/// `GET {database}/subscriptions` answer.
struct SubscriptionList: Encodable, Sendable {
    var subscriptions: [Subscription]
}

/// `DELETE {database}/subscriptions/{id}` answer.
struct DeletedSubscription: Encodable, Sendable {
    var subscriptionID: String
    var deleted: Bool
}
