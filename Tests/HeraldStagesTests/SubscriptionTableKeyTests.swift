import Foundation
import HeraldModel
import HeraldStages
import Testing

/// The subscription table reads a `subscriptions` topic keyed either way: by identity
/// (`container/database/owner/ID`) or by the key used before per-user IDs (`container/database/ID`).
@Suite("Subscription table: keys per user and old keys")
struct SubscriptionTableKeyTests {
    typealias F = SubscriptionFixtures

    private func value(_ subscription: Subscription) throws -> Data { try WireCodec().encode(subscription) }

    private func predicate(_ table: SubscriptionTable, _ subscription: Subscription) -> String? {
        table.subscription(forKey: subscription.partitionKey)?.query?.predicate
    }

    @Test("records and tombstones under identity keys: equal IDs of two owners are two subscriptions")
    func identityKeys() throws {
        let table = SubscriptionTable()
        let mine = F.publicNote("private-changes", owner: "_u1")
        let theirs = F.publicNote("private-changes", owner: "_u2", predicate: "TRUEPREDICATE AND TRUEPREDICATE")
        try table.apply(key: mine.partitionKey, value: value(mine))
        try table.apply(key: theirs.partitionKey, value: value(theirs))
        #expect(table.count == 2)
        try table.apply(key: mine.partitionKey, value: nil)
        #expect(table.count == 1)
        #expect(table.subscription(forKey: theirs.partitionKey)?.ownerRecordName == "_u2")
    }

    @Test("an old-key record counts as its owner's; its old-key tombstone deletes it")
    func oldKeyRecordAndTombstone() throws {
        let table = SubscriptionTable()
        let legacy = F.publicNote("notes", owner: "_u1")
        try table.apply(key: F.oldKey("notes"), value: value(legacy))
        #expect(table.subscription(forKey: legacy.partitionKey) == legacy)
        #expect(table.oldKey(of: legacy) == F.oldKey("notes"))
        try table.apply(key: F.oldKey("notes"), value: nil)
        #expect(table.count == 0)
        #expect(table.oldKey(of: legacy) == nil)
    }

    @Test("a new-key record wins over an old-key record of the same identity, in either order", arguments: [false, true])
    func newKeyWins(newFirst: Bool) throws {
        let table = SubscriptionTable()
        let old = F.publicNote("notes", owner: "_u1")
        let new = F.publicNote("notes", owner: "_u1", predicate: "TRUEPREDICATE AND TRUEPREDICATE")
        let records = [(F.oldKey("notes"), old), (new.partitionKey, new)]
        for (key, subscription) in newFirst ? records.reversed() : records { try table.apply(key: key, value: value(subscription)) }
        #expect(predicate(table, new) == "TRUEPREDICATE AND TRUEPREDICATE")
        // The migration's old-key tombstone then leaves the new-key record alone.
        try table.apply(key: F.oldKey("notes"), value: nil)
        #expect(predicate(table, new) == "TRUEPREDICATE AND TRUEPREDICATE")
        #expect(table.count == 1)
    }

    @Test("an old-key tombstone after another user saved the same ID under its new key leaves that user's")
    func oldTombstoneSparesOtherOwner() throws {
        let table = SubscriptionTable()
        let first = F.publicNote("shared-id", owner: "_u1")
        let second = F.publicNote("shared-id", owner: "_u2", predicate: "TRUEPREDICATE AND TRUEPREDICATE")
        try table.apply(key: F.oldKey("shared-id"), value: value(first))
        try table.apply(key: second.partitionKey, value: value(second))
        try table.apply(key: F.oldKey("shared-id"), value: nil)
        #expect(table.subscription(forKey: first.partitionKey) == nil)
        #expect(table.subscription(forKey: second.partitionKey)?.ownerRecordName == "_u2")
    }

    @Test("a key that is neither the identity nor the old key is rejected, the table unchanged")
    func foreignKey() throws {
        let table = SubscriptionTable()
        let subscription = F.publicNote("notes", owner: "_u1")
        #expect(throws: Rejection.Reason.self) {
            try table.apply(key: "\(F.container)/public/_u2/notes", value: value(subscription))
        }
        #expect(table.count == 0)
    }
}
