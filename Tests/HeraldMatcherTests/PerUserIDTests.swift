import HeraldMatcher
import HeraldModel
import Testing

/// Subscription IDs are per user (docs/cloudkit-behaviour.md §1): equal IDs of different owners are different
/// subscriptions everywhere in the index.
@Suite("Matcher: subscription IDs per user")
struct PerUserIDTests {
    typealias F = MatcherFixtures

    @Test("two owners' 'private-changes' each fire for their own zones only")
    func privateDatabase() throws {
        var index = SubscriptionIndex()
        try index.upsert(F.subscription("private-changes", type: .database, owner: "_u1"))
        try index.upsert(F.subscription("private-changes", type: .database, owner: "_u2"))
        #expect(index.count == 2)
        let custom = { (owner: String) in ZoneID(zoneName: "Notes", ownerRecordName: owner) }
        #expect(index.matches(for: F.change(zone: custom("_u1"))).map(\.recipient) == ["_u1"])
        #expect(index.matches(for: F.change(zone: custom("_u2"))).map(\.recipient) == ["_u2"])
    }

    @Test("one change firing both owners' equal IDs gives two matches with different notification IDs")
    func sameChange() throws {
        var index = SubscriptionIndex()
        try index.upsert(F.subscription("posts", database: .public, owner: "_u2"))
        try index.upsert(F.subscription("posts", database: .public, owner: "_u1"))
        let matches = index.matches(for: F.change(database: .public))
        #expect(matches.map(\.recipient) == ["_u1", "_u2"], "sorted by ID, then owner")
        #expect(Set(matches.map(\.notificationID)).count == 2)
    }

    @Test("removing one owner's subscription leaves the other's; fires-once retirement names the owner")
    func removal() throws {
        var index = SubscriptionIndex()
        let mine = F.subscription("once", database: .public, owner: "_u1", firesOnce: true)
        let theirs = F.subscription("once", database: .public, owner: "_u2", firesOnce: true)
        try index.upsert(mine)
        try index.upsert(theirs)
        #expect(mine.partitionKey != theirs.partitionKey)
        index.remove(key: mine.partitionKey)
        #expect(index.subscription(forKey: theirs.partitionKey)?.ownerRecordName == "_u2")
        #expect(index.matches(for: F.change(database: .public)).map(\.recipient) == ["_u2"])
    }

    @Test("duplicates are per user: another owner's identical definition is not a duplicate, one's own is")
    func duplicates() throws {
        var index = SubscriptionIndex()
        try index.upsert(F.subscription("a", database: .public, owner: "_u1"))
        try index.upsert(F.subscription("b", database: .public, owner: "_u2"))
        do {
            try index.upsert(F.subscription("c", database: .public, owner: "_u2"))
            Issue.record("_u2's second identical definition was accepted")
        } catch {
            #expect(error.code == .duplicateSubscription)
            #expect(error.reason == "subscription is duplicate of 'b'")
        }
    }
}
