import Foundation
import HeraldModel
import HeraldStages

/// A local copy of the compacted `subscriptions` topic that the publisher updates at once
/// (read-your-writes: a `GET` right after a `PUT` sees it), ahead of the copy's own reading
/// of the topic: the API's `StoredSubscriptionDirectory`, or a `SubscriptionTable`.
public protocol SubscriptionCopy: Sendable {
    /// Files a record just written to the topic, as read on its placement partition.
    /// - Throws: what the copy refuses or its store's failure (the topic has the record anyway).
    func applyPublished(key: String, value: Data) async throws
    /// Removes a subscription just tombstoned, by identity.
    func removePublished(key: String) async throws
    /// The key before per-user IDs under which `subscription` still has a record on the topic, if any.
    func oldKey(of subscription: Subscription) throws -> String?
}

extension StoredSubscriptionDirectory: SubscriptionCopy {
    public func applyPublished(key: String, value: Data) async throws { try await apply(key: key, value: value) }
    public func removePublished(key: String) async throws { try await remove(key: key) }
}

extension SubscriptionTable: SubscriptionCopy {
    public func applyPublished(key: String, value: Data) throws { try apply(key: key, value: value) }
    public func removePublished(key: String) throws { remove(key: key) }
}
