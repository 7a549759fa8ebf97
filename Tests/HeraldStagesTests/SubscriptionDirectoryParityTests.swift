import Foundation
import HeraldMatcher
import HeraldModel
import HeraldReader
import HeraldStages
import HeraldTestSupport
import Testing

/// The API's SQLite directory (`StoredSubscriptionDirectory`) files the `subscriptions` topic
/// exactly as the in-memory `SubscriptionTable` does: the same records accepted and refused
/// (duplicates among them, with the same reason), the same subscription per key, the same
/// lists per owner, the same old keys, and `validate` answering alike.
@Suite("Subscription directory in SQLite: as the in-memory table")
struct SubscriptionDirectoryParityTests {
    typealias F = SubscriptionFixtures

    private static let owners = ["_u1", "_u2", "_u3"]

    private static func subscription(_ id: String, owner: String, database: DatabaseScope, priority: Int, events: [Subscription.Event]) -> Subscription {
        Subscription(
            subscriptionID: id, subscriptionType: .query, container: F.container, database: database, ownerRecordName: owner,
            query: SubscriptionQuery(recordType: "Note", predicate: "priority > \(priority)"), firesOn: events)
    }

    /// What applying a record did: "ok", or the refusal's code and reason.
    private static func outcome(_ body: () async throws -> Void) async -> String {
        do {
            try await body()
            return "ok"
        } catch let reason as Rejection.Reason {
            return "\(reason)"
        } catch let error as MatcherError {
            return error.code.rawValue + ": " + error.reason
        } catch {
            return "other: \(error)"
        }
    }

    @Test("random records, tombstones, old keys, misplaced copies and duplicates: both file alike", arguments: 0..<4)
    func filesAlike(seed: UInt64) async throws {
        var random = SeededGenerator(seed: seed)
        let table = SubscriptionTable(partitions: 3)
        let directory = StoredSubscriptionDirectory(store: try SubscriptionStore.inMemory(), partitions: 3)
        let codec = WireCodec()
        var refused = 0
        for step in 0..<400 {
            let owner = Self.owners.randomElement(using: &random)!
            let database: DatabaseScope = Bool.random(using: &random) ? .public : .private
            let id = "s\(Int.random(in: 0..<6, using: &random))"
            // Few predicates and events: the same definition under two IDs (a duplicate) is common.
            let events: [Subscription.Event] = Bool.random(using: &random) ? [.create, .update] : [.update, .create]
            let subscription = Self.subscription(
                id, owner: owner, database: database, priority: Int.random(in: 0..<5, using: &random), events: events)
            let oldKey = database == .public && Int.random(in: 0..<4, using: &random) == 0
            let key = oldKey ? subscription.legacyPartitionKey : subscription.partitionKey
            let value = Int.random(in: 0..<4, using: &random) == 0 ? nil : try codec.encode(subscription)
            let partition = Int32.random(in: 0..<3, using: &random)
            let inMemory = await Self.outcome { try table.apply(key: key, value: value, partition: partition) }
            let stored = await Self.outcome { try await directory.apply(key: key, value: value, partition: partition) }
            #expect(stored == inMemory, "step \(step): \(key)")
            if inMemory != "ok" { refused += 1 }
            if Int.random(in: 0..<10, using: &random) == 0 {
                table.remove(key: subscription.partitionKey)
                try await directory.remove(key: subscription.partitionKey)
            }
            let (mine, theirs) = (try directory.subscription(forKey: subscription.partitionKey), table.subscription(forKey: subscription.partitionKey))
            #expect(mine == theirs, "step \(step): \(key) \(value == nil ? "tombstone" : "record") on \(partition)")
            #expect(try directory.oldKey(of: subscription) == table.oldKey(of: subscription))
            let candidate = Self.subscription(
                "v\(Int.random(in: 0..<6, using: &random))", owner: owner, database: database,
                priority: Int.random(in: 0..<5, using: &random), events: [.create, .update])
            let (validated, checked) = (await Self.outcome { try directory.validate(candidate) }, await Self.outcome { try table.validate(candidate) })
            #expect(validated == checked)
            for owner in Self.owners {
                for database in [DatabaseScope.public, .private] {
                    #expect(
                        try directory.subscriptions(container: F.container, database: database, owner: owner)
                            == table.subscriptions(container: F.container, database: database, owner: owner))
                }
            }
        }
        #expect(try directory.count() == table.count)
        #expect(refused > 0, "the sequence includes refused records (duplicates)")
    }

    @Test("validate: a duplicate of the owner's names it; a replacement, another owner or other events are no duplicate")
    func validateDuplicates() async throws {
        let directory = StoredSubscriptionDirectory(store: try SubscriptionStore.inMemory())
        let first = Self.subscription("first", owner: "_u1", database: .private, priority: 3, events: [.create, .update])
        try await directory.apply(key: first.partitionKey, value: try WireCodec().encode(first))
        var copy = first
        copy.subscriptionID = "copy"
        copy.firesOn = [.update, .create]
        #expect(throws: MatcherError.duplicate(copy, of: first)) { try directory.validate(copy) }
        let value = try WireCodec().encode(copy)
        let refused = await Self.outcome { try await directory.apply(key: copy.partitionKey, value: value) }
        #expect(refused == "DUPLICATE_SUBSCRIPTION: subscription is duplicate of 'first'")
        try directory.validate(first)
        var theirs = copy
        theirs.ownerRecordName = "_u2"
        try directory.validate(theirs)
        var other = copy
        other.firesOn = [.create]
        try directory.validate(other)
        var broken = copy
        broken.query?.predicate = "priority >"
        #expect(throws: MatcherError.self) { try directory.validate(broken) }
        #expect(try directory.subscriptions(container: F.container, database: .private, owner: "_u1") == [first])
    }
}
