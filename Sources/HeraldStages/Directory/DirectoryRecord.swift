import HeraldModel

/// A record of the `subscriptions` topic prepared for a `StoredSubscriptionDirectory` off its
/// writer, on any thread: decoded, checked and compiled (`SubscriptionRecord`), and the
/// digest of its subscription's definition taken, so that filing it only reads and writes rows.
public struct DirectoryRecord: Sendable {
    public let record: SubscriptionRecord
    /// `SubscriptionFiling.definitionDigest` of the decoded subscription; `nil`: a tombstone,
    /// an undecodable value, or one whose definition did not encode (filing says why).
    let definition: String?

    init(_ record: SubscriptionRecord) {
        self.record = record
        definition = (try? record.subscription()).flatMap { $0 }.flatMap { try? SubscriptionFiling.definitionDigest($0) }
    }
}
