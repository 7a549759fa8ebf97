import HeraldMatcher
import HeraldModel
import Testing

/// A subscription prepared apart (`SubscriptionIndex.prepare`, on any thread) and filed later
/// (`upsert` of a prepared one) ends up as if upserted directly.
@Suite("Prepared subscriptions")
struct PreparedSubscriptionTests {
    typealias F = MatcherFixtures

    /// Valid ones, a duplicate, a replacement, and ones that break a rule.
    private static let subscriptions: [Subscription] = [
        F.subscription("high", predicate: "priority > 3"),
        F.subscription("low", predicate: "priority < 2"),
        F.subscription("copy", predicate: "priority > 3"),
        F.subscription("high", predicate: "priority >= 4"),
        F.subscription("copy", predicate: "priority > 3"),
        F.subscription("broken", predicate: "priority >"),
        F.subscription("keys", desiredKeys: ["a", "b", "c", "d"]),
        F.subscription("zone", type: .zone, zone: ZoneID(zoneName: "Notes", ownerRecordName: "_u1")),
        F.subscription("other", owner: "_u2", predicate: "priority > 3"),
    ]

    private static func outcome(_ body: () throws(MatcherError) -> Void) -> String {
        do throws(MatcherError) {
            try body()
            return "ok"
        } catch {
            return "\(error.code.rawValue): \(error.reason)"
        }
    }

    private static func fired(_ index: SubscriptionIndex) -> [String] {
        (0..<6).flatMap { priority in
            index.matches(for: F.change("c\(priority)", fields: ["priority": .int64(Int64(priority))]))
                .map { "\($0.subscription.subscriptionID)@\(priority)" }
        }.sorted()
    }

    @Test("all prepared before any is filed: the same errors, in order, and the same index as upserting each directly")
    func preparedAheadFilesAlike() {
        var direct = SubscriptionIndex()
        let directOutcomes = Self.subscriptions.map { subscription in Self.outcome { () throws(MatcherError) in try direct.upsert(subscription) } }
        var filed = SubscriptionIndex()
        let prepared = Self.subscriptions.map { subscription in
            Result { () throws(MatcherError) in try filed.prepare(subscription) }
        }
        let filedOutcomes = prepared.map { made in Self.outcome { () throws(MatcherError) in try filed.upsert(made.get()) } }
        #expect(filedOutcomes == directOutcomes)
        #expect(directOutcomes[2].hasPrefix("DUPLICATE_SUBSCRIPTION"), "the duplicate is found when filed, not when prepared")
        #expect(filed.count == direct.count)
        #expect(Self.fired(filed) == Self.fired(direct))
        #expect(Set(filed.all.map(\.partitionKey)) == Set(direct.all.map(\.partitionKey)))
    }

    @Test("prepared on other tasks, filed in order: the same index")
    func preparedConcurrently() async throws {
        let subscriptions = (0..<400).map { F.subscription("s\($0)", owner: "_u\($0 % 7)", predicate: "priority > \($0 % 5)") }
        var direct = SubscriptionIndex()
        for subscription in subscriptions { try? direct.upsert(subscription) }
        let rules = SubscriptionRules()
        let prepared = await withTaskGroup(of: (Int, Result<PreparedSubscription, MatcherError>).self) { group in
            for (number, subscription) in subscriptions.enumerated() {
                group.addTask { (number, Result { () throws(MatcherError) in try rules.prepareForUpsert(subscription) }) }
            }
            var all: [Int: Result<PreparedSubscription, MatcherError>] = [:]
            for await (number, made) in group { all[number] = made }
            return all
        }
        var filed = SubscriptionIndex()
        for number in subscriptions.indices { try? filed.upsert(#require(prepared[number]).get()) }
        #expect(filed.count == direct.count)
        #expect(direct.count == 35, "five definitions per owner, seven owners")
        #expect(Self.fired(filed) == Self.fired(direct))
    }

    @Test("one prepared under other rules is checked again under the index's")
    func otherRulesCheckedAgain() throws {
        let subscription = F.subscription("either", predicate: "priority > 3 OR priority < 1")
        let lenient = try SubscriptionRules().prepareForUpsert(subscription)
        var strict = SubscriptionIndex(rules: SubscriptionRules(strictCloudKit: true))
        let outcome = Self.outcome { () throws(MatcherError) in try strict.upsert(lenient) }
        #expect(outcome.hasPrefix(MatcherError.Code.invalidPredicate.rawValue))
        #expect(strict.count == 0)
        var lenientIndex = SubscriptionIndex()
        try lenientIndex.upsert(lenient)
        #expect(lenientIndex.count == 1)
        #expect(lenient.key == subscription.partitionKey)
    }
}
