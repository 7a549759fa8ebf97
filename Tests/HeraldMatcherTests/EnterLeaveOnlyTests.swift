import HeraldModel
import Testing
@testable import HeraldMatcher

@Suite("enter/leave-only subscriptions and the negated list filters, indexed and scanned")
struct EnterLeaveOnlyTests {
    typealias F = MatcherFixtures

    /// The reasons a change gives, through the predicate index or by scanning every subscription.
    private func reasons(_ subscriptions: [Subscription], _ change: RecordChange, indexed: Bool) throws -> [String] {
        var index = SubscriptionIndex()
        index.usesPredicateIndex = indexed
        for subscription in subscriptions { try index.upsert(subscription) }
        return index.matches(for: change).map { "\($0.subscription.subscriptionID):\($0.queryNotificationReason?.rawValue ?? "-")" }
    }

    @Test("enter and/or leave alone pass the rules; an empty firesOn is refused with the exact reason", arguments: [
        [Subscription.Event.enter], [.leave], [.enter, .leave], [.leave, .enter],
    ])
    func rules(firesOn: [Subscription.Event]) throws {
        var index = SubscriptionIndex()
        try index.upsert(F.subscription("moves", predicate: "priority >= 3", firesOn: firesOn))
        #expect(index.count == 1)
        do {
            _ = try index.validate(F.subscription("none", predicate: "priority >= 4", firesOn: []))
            Issue.record("an empty firesOn was accepted")
        } catch {
            #expect(error.code == .invalidSubscription)
            #expect(error.reason == "firesOn: a query subscription fires on at least one of create, update, delete, enter, leave")
        }
    }

    @Test("the duplicate check covers enter/leave-only subscriptions; firesOn order does not matter, its events do")
    func duplicates() throws {
        var index = SubscriptionIndex()
        try index.upsert(F.subscription("moves", predicate: "priority >= 3", firesOn: [.enter, .leave]))
        for firesOn in [[Subscription.Event.enter, .leave], [.leave, .enter]] {
            do {
                try index.upsert(F.subscription("again", predicate: "priority >= 3", firesOn: firesOn))
                Issue.record("duplicate \(firesOn) accepted")
            } catch {
                #expect(error.code == .duplicateSubscription)
                #expect(error.reason == "subscription is duplicate of 'moves'")
            }
        }
        try index.upsert(F.subscription("enters", predicate: "priority >= 3", firesOn: [.enter]))
        try index.upsert(F.subscription("leaves", predicate: "priority >= 3", firesOn: [.leave]))
        try index.upsert(F.subscription("moves", predicate: "priority >= 3", firesOn: [.leave, .enter]))  // its own ID: a replacement
        #expect(index.count == 3)
    }

    static let high: [String: FieldValue] = ["priority": .int64(5)]
    static let low: [String: FieldValue] = ["priority": .int64(1)]

    @Test("enter/leave-only fire only on updates that carry the record before the change", arguments: [
        // (firesOn, kind, fields, previous, expected reason)
        ([Subscription.Event.enter], RecordChange.Kind.create, high, nil, nil),
        ([.enter], .create, high, low, nil),
        ([.enter], .delete, high, nil, nil),
        ([.enter], .delete, high, low, nil),
        ([.enter], .update, high, nil, nil),
        ([.enter], .update, high, low, .recordEntered),
        ([.enter], .update, low, high, nil),
        ([.enter], .update, high, high, nil),
        ([.enter], .update, low, low, nil),
        ([.leave], .create, low, high, nil),
        ([.leave], .delete, low, high, nil),
        ([.leave], .update, low, nil, nil),
        ([.leave], .update, low, high, .recordLeft),
        ([.leave], .update, high, low, nil),
        ([.leave], .update, high, high, nil),
        ([.enter, .leave], .create, high, nil, nil),
        ([.enter, .leave], .delete, high, nil, nil),
        ([.enter, .leave], .update, high, nil, nil),
        ([.enter, .leave], .update, high, low, .recordEntered),
        ([.enter, .leave], .update, low, high, .recordLeft),
        ([.enter, .leave], .update, high, high, nil),
        ([.enter, .leave], .update, high, [:], .recordEntered),
        ([.enter, .leave], .update, [:], high, .recordLeft),
    ] as [([Subscription.Event], RecordChange.Kind, [String: FieldValue], [String: FieldValue]?, QueryNotificationReason?)])
    func firing(
        firesOn: [Subscription.Event], kind: RecordChange.Kind, fields: [String: FieldValue], previous: [String: FieldValue]?,
        reason: QueryNotificationReason?
    ) throws {
        let subscription = F.subscription("moves", predicate: "priority >= 3", firesOn: firesOn)
        let change = F.change(kind: kind, fields: fields, previous: previous)
        let expected = reason.map { ["moves:\($0.rawValue)"] } ?? []
        #expect(try reasons([subscription], change, indexed: true) == expected)
        #expect(try reasons([subscription], change, indexed: false) == expected)
        #expect((try SubscriptionIndex().explain(subscription, change) == nil) == (reason != nil))
    }

    private static func strings(_ values: String...) -> FieldValue { .list(values.map(FieldValue.string), of: .string) }

    @Test("NOT_LIST_CONTAINS_ANY / ALL subscriptions fire on create, update, delete, enter and leave")
    func negatedListFilters() throws {
        let open = F.subscription(
            "open", filterBy: [QueryFilter(comparator: .notListContainsAny, fieldName: "tags", fieldValue: Self.strings("done", "archived"))],
            firesOn: [.create, .update, .delete])
        let incomplete = F.subscription(
            "incomplete", filterBy: [
                QueryFilter(comparator: .equals, fieldName: "kind", fieldValue: .string("task")),
                QueryFilter(comparator: .notListContainsAll, fieldName: "tags", fieldValue: Self.strings("checked", "reviewed")),
            ],
            firesOn: [.create, .delete])
        let reopened = F.subscription(
            "reopened", filterBy: [QueryFilter(comparator: .notListContainsAny, fieldName: "tags", fieldValue: Self.strings("done"))],
            firesOn: [.enter])
        let finished = F.subscription(
            "finished", filterBy: [QueryFilter(comparator: .notListContainsAll, fieldName: "tags", fieldValue: Self.strings("checked", "reviewed"))],
            firesOn: [.leave])
        let all = [open, incomplete, reopened, finished]
        let task: [String: FieldValue] = ["kind": .string("task"), "tags": Self.strings("checked")]
        let done: [String: FieldValue] = ["kind": .string("task"), "tags": Self.strings("checked", "reviewed", "done")]
        let untagged: [String: FieldValue] = ["kind": .string("task")]
        let cases: [(RecordChange, [String])] = [
            (F.change(kind: .create, fields: task), ["incomplete:recordCreated", "open:recordCreated"]),
            (F.change(kind: .create, fields: untagged), ["incomplete:recordCreated", "open:recordCreated"]),
            (F.change(kind: .create, fields: done), []),
            (F.change(kind: .delete, fields: task), ["incomplete:recordDeleted", "open:recordDeleted"]),
            (F.change(kind: .update, fields: task), ["open:recordUpdated"]),
            (F.change(kind: .update, fields: task, previous: done), ["open:recordUpdated", "reopened:recordEntered"]),
            (F.change(kind: .update, fields: done, previous: task), ["finished:recordLeft"]),
            (F.change(kind: .update, fields: done, previous: untagged), ["finished:recordLeft"]),
            (F.change(kind: .update, fields: untagged, previous: done), ["open:recordUpdated", "reopened:recordEntered"]),
        ]
        for (change, expected) in cases {
            #expect(try reasons(all, change, indexed: true) == expected, "\(change.kind) \(change.fields)")
            #expect(try reasons(all, change, indexed: false) == expected, "\(change.kind) \(change.fields)")
        }
    }

    @Test("strict CloudKit rules accept NOT_LIST_CONTAINS_ALL in filterBy, not its format-string spelling")
    func strictRules() throws {
        var strict = SubscriptionIndex(rules: SubscriptionRules(strictCloudKit: true))
        try strict.upsert(F.subscription(
            "list", filterBy: [QueryFilter(comparator: .notListContainsAll, fieldName: "tags", fieldValue: Self.strings("a", "b"))]))
        do {
            try strict.upsert(F.subscription("text", predicate: "NOT (tags CONTAINS 'a' AND tags CONTAINS 'b')"))
            Issue.record("NOT around AND accepted in a format string")
        } catch {
            #expect(error.code == .invalidPredicate)
            #expect(error.reason.contains("CloudKit does not allow NOT around an AND"), "\(error.reason)")
        }
        #expect(strict.count == 1)
    }
}
