import HeraldMatcher
import HeraldModel
import Testing

@Suite("Subscription rules")
struct SubscriptionRulesTests {
    typealias F = MatcherFixtures

    @Test("types are only allowed in their databases", arguments: [
        (Subscription.SubscriptionType.query, DatabaseScope.public, true), (.query, .private, true), (.query, .shared, false),
        (.zone, .public, false), (.zone, .private, true), (.zone, .shared, false),
        (.database, .public, false), (.database, .private, true), (.database, .shared, true),
    ])
    func typesPerDatabase(type: Subscription.SubscriptionType, database: DatabaseScope, allowed: Bool) {
        let zone = type == .zone ? ZoneID(zoneName: "Notes", ownerRecordName: "_u1") : nil
        var index = SubscriptionIndex()
        let result = Result { () throws(MatcherError) in try index.upsert(F.subscription("s", type: type, database: database, zone: zone)) }
        #expect(((try? result.get()) != nil) == allowed)
    }

    @Test("more than three desired keys are refused")
    func desiredKeysLimit() throws {
        var index = SubscriptionIndex()
        try index.upsert(F.subscription("three", desiredKeys: ["a", "b", "c"]))
        #expect(throws: MatcherError.self) { try index.upsert(F.subscription("four", predicate: "x == 1", desiredKeys: ["a", "b", "c", "d"])) }
    }

    @Test("a duplicate definition of the same owner is refused, naming the existing subscription")
    func duplicatesRefused() throws {
        var index = SubscriptionIndex()
        try index.upsert(F.subscription("first", predicate: "priority > 3"))
        do {
            try index.upsert(F.subscription("second", predicate: "priority > 3"))
            Issue.record("duplicate accepted")
        } catch {
            #expect(error.code == .duplicateSubscription)
            #expect(error.reason == "subscription is duplicate of 'first'")
        }
        // Another owner may have the same definition; the same ID may be replaced.
        try index.upsert(F.subscription("second", owner: "_u2", predicate: "priority > 3"))
        try index.upsert(F.subscription("first", predicate: "priority > 3"))
        #expect(index.count == 2)
    }

    @Test("a duplicate is found whatever the order of firesOn; another notification info is no duplicate; removal frees the definition")
    func duplicateDefinitionParts() throws {
        var index = SubscriptionIndex()
        try index.upsert(F.subscription("first", predicate: "priority > 3", firesOn: [.create, .update]))
        #expect(throws: MatcherError.self) {
            try index.upsert(F.subscription("reordered", predicate: "priority > 3", firesOn: [.update, .create]))
        }
        try index.upsert(F.subscription("other-info", predicate: "priority > 3", firesOn: [.create, .update], desiredKeys: ["a"]))
        try index.upsert(F.subscription("other-events", predicate: "priority > 3", firesOn: [.create]))
        index.remove(key: F.subscription("first").partitionKey)
        try index.upsert(F.subscription("reordered", predicate: "priority > 3", firesOn: [.update, .create]))
        #expect(index.count == 3)
    }

    @Test("an invalid predicate is refused with the parser's reason; strict mode refuses OR")
    func invalidPredicates() throws {
        var index = SubscriptionIndex()
        #expect(throws: MatcherError.self) { try index.upsert(F.subscription("bad", predicate: "priority >")) }
        try index.upsert(F.subscription("or", predicate: "a == 1 OR b == 2"))
        var strict = SubscriptionIndex(rules: SubscriptionRules(strictCloudKit: true))
        #expect(throws: MatcherError.self) { try strict.upsert(F.subscription("or", predicate: "a == 1 OR b == 2")) }
    }
}
