import HeraldMatcher
import HeraldModel
import Testing

@Suite("Matching rules")
struct MatchingTests {
    typealias F = MatcherFixtures

    private func index(_ subscriptions: Subscription...) throws -> SubscriptionIndex {
        var index = SubscriptionIndex()
        for subscription in subscriptions { try index.upsert(subscription) }
        return index
    }

    @Test("firesOn decides which kinds fire, with the matching reason", arguments: [
        (RecordChange.Kind.create, [Subscription.Event.create], QueryNotificationReason?.some(.recordCreated)),
        (.update, [.update], .recordUpdated), (.delete, [.delete], .recordDeleted),
        (.create, [.update, .delete], nil), (.delete, [.create], nil),
    ])
    func firesOnAndReasons(kind: RecordChange.Kind, firesOn: [Subscription.Event], reason: QueryNotificationReason?) throws {
        let index = try index(F.subscription("s", firesOn: firesOn))
        let matches = index.matches(for: F.change(kind: kind))
        #expect(matches.first?.queryNotificationReason == reason)
        #expect(matches.count == (reason == nil ? 0 : 1))
    }

    @Test("create and update test the record after the change, delete its last stored version")
    func predicateOnRecord() throws {
        let index = try index(F.subscription("urgent", predicate: "priority >= %@", arguments: [.integer(3)]))
        #expect(index.matches(for: F.change(fields: ["priority": .int64(5)])).count == 1)
        #expect(index.matches(for: F.change(fields: ["priority": .int64(1)])).isEmpty)
        #expect(index.matches(for: F.change(kind: .delete, fields: ["priority": .int64(4)])).count == 1)
        #expect(index.matches(for: F.change(fields: [:])).isEmpty, "a missing field is false, never an error")
    }

    @Test("enter and leave fire when the record starts or stops matching, if asked")
    func enterAndLeave() throws {
        let index = try index(
            F.subscription("moves", predicate: "priority >= 3", firesOn: [.enter, .leave]),
            F.subscription("updates", owner: "_u1", predicate: "priority >= 3 AND TRUEPREDICATE", firesOn: [.update]))
        let entered = index.matches(for: F.change(kind: .update, fields: ["priority": .int64(5)], previous: ["priority": .int64(1)]))
        #expect(entered.map(\.queryNotificationReason) == [.recordEntered, .recordUpdated])
        let left = index.matches(for: F.change(kind: .update, fields: ["priority": .int64(1)], previous: ["priority": .int64(5)]))
        #expect(left.map(\.queryNotificationReason) == [.recordLeft])
        let stayed = index.matches(for: F.change(kind: .update, fields: ["priority": .int64(6)], previous: ["priority": .int64(5)]))
        #expect(stayed.map(\.subscription.subscriptionID) == ["updates"])
    }

    @Test("in the private database a subscriber only sees zones they own")
    func privateVisibility() throws {
        let index = try index(F.subscription("mine", owner: "_u1"), F.subscription("theirs", owner: "_u2"))
        let matches = index.matches(for: F.change(zone: ZoneID(zoneName: "Notes", ownerRecordName: "_u1")))
        #expect(matches.map(\.recipient) == ["_u1"])
    }

    @Test("public query subscriptions see every zone; a zoneID limits them to one")
    func publicAndZoneScoped() throws {
        let index = try index(
            F.subscription("all", database: .public, owner: "_u1"),
            F.subscription("one", database: .public, owner: "_u2", predicate: "TRUEPREDICATE AND TRUEPREDICATE",
                           zone: ZoneID(zoneName: "A", ownerRecordName: "_u9")))
        let inA = index.matches(for: F.change(database: .public, zone: ZoneID(zoneName: "A", ownerRecordName: "_u9")))
        #expect(Set(inA.map(\.subscription.subscriptionID)) == ["all", "one"])
        let inB = index.matches(for: F.change(database: .public, zone: ZoneID(zoneName: "B", ownerRecordName: "_u9")))
        #expect(inB.map(\.subscription.subscriptionID) == ["all"])
    }

    @Test("zone subscriptions fire for every change in their zone")
    func zoneSubscriptions() throws {
        let zone = ZoneID(zoneName: "Notes", ownerRecordName: "_u1")
        let index = try index(F.subscription("zone", type: .zone, zone: zone))
        let match = try #require(index.matches(for: F.change(kind: .delete, zone: zone, recordType: "Anything")).first)
        #expect(match.notificationType == .recordZone)
        #expect(match.queryNotificationReason == nil)
        #expect(index.matches(for: F.change(zone: ZoneID(zoneName: "Other", ownerRecordName: "_u1"))).isEmpty)
    }

    @Test("private database subscriptions ignore the default zone")
    func databaseSubscriptionsSkipDefaultZone() throws {
        let index = try index(F.subscription("db", type: .database))
        #expect(index.matches(for: F.change(zone: ZoneID(zoneName: "Notes", ownerRecordName: "_u1"))).count == 1)
        #expect(index.matches(for: F.change(zone: ZoneID(zoneName: ZoneID.defaultZoneName, ownerRecordName: "_u1"))).isEmpty)
    }

    @Test("shared database subscriptions fire for participants only")
    func sharedDatabaseParticipants() throws {
        let index = try index(
            F.subscription("p2", type: .database, database: .shared, owner: "_u2"),
            F.subscription("p3", type: .database, database: .shared, owner: "_u3"))
        let matches = index.matches(for: F.change(database: .shared, participants: ["_u2", "_u4"]))
        #expect(matches.map(\.recipient) == ["_u2"])
        #expect(matches.first?.notificationType == .database)
    }

    @Test("notification IDs are deterministic per change and subscription")
    func deterministicIDs() throws {
        let index = try index(F.subscription("s"))
        let first = index.matches(for: F.change("c-7")).map(\.notificationID)
        let again = index.matches(for: F.change("c-7")).map(\.notificationID)
        #expect(first == again)
        #expect(first != index.matches(for: F.change("c-8")).map(\.notificationID))
    }
}
