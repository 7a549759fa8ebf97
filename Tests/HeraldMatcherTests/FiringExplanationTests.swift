import HeraldMatcher
import HeraldModel
import Testing

@Suite("Why a subscription does not fire (SubscriptionIndex.explain)")
struct FiringExplanationTests {
    typealias F = MatcherFixtures
    let index = SubscriptionIndex()
    let notes = ZoneID(zoneName: "Notes", ownerRecordName: "_u1")

    private func miss(_ subscription: Subscription, _ change: RecordChange) throws -> FiringMiss {
        try #require(try index.explain(subscription, change))
    }

    @Test("a subscription that fires has nothing to explain")
    func fires() throws {
        #expect(try index.explain(F.subscription("s"), F.change()) == nil)
        #expect(try index.explain(F.subscription("zone", type: .zone, zone: notes), F.change(zone: notes)) == nil)
    }

    @Test("a subscription that breaks a rule for saving it is refused, not explained")
    func invalid() {
        #expect(throws: MatcherError.self) { try index.explain(F.subscription("s", predicate: "priority >>> 3"), F.change()) }
    }

    @Test("container and database")
    func containerAndDatabase() throws {
        var elsewhere = F.change()
        elsewhere.container = "iCloud.other"
        #expect(try miss(F.subscription("s"), elsewhere) == FiringMiss(
            .container, "container: the change is in iCloud.other, the subscription in \(F.container)"))
        #expect(try miss(F.subscription("s"), F.change(database: .public)) == FiringMiss(
            .database, "database: the change is in the public database, the subscription in the private database"))
    }

    @Test("query subscriptions: record type, visibility of the zone, the watched zone")
    func queryScope() throws {
        #expect(try miss(F.subscription("s", recordType: "Task"), F.change()) == FiringMiss(
            .recordType, "record type: the changed record is of type Note, the subscription watches Task"))
        #expect(try miss(F.subscription("s"), F.change(zone: ZoneID(zoneName: "Notes", ownerRecordName: "_u2"))) == FiringMiss(
            .visibility,
            "visibility: the change's zone belongs to _u2; a private-database subscription of _u1 only sees zones _u1 owns"))
        let other = ZoneID(zoneName: "Other", ownerRecordName: "_u1")
        #expect(try miss(F.subscription("s", zone: other), F.change(zone: notes)) == FiringMiss(
            .zone, "zone: the subscription watches Other (owner _u1), the change is in Notes (owner _u1)"))
    }

    @Test("create and delete: firesOn, then the predicate")
    func createAndDelete() throws {
        #expect(try miss(F.subscription("s", firesOn: [.update, .delete]), F.change()) == FiringMiss(
            .firesOn, "firesOn: firesOn [update, delete] does not include create"))
        let urgent = F.subscription("s", predicate: "priority >= 3")
        #expect(try miss(urgent, F.change(fields: ["priority": .int64(1)])) == FiringMiss(
            .predicate, "predicate: `priority >= 3` is false for the record created"))
        #expect(try miss(urgent, F.change(kind: .delete, fields: [:])) == FiringMiss(
            .predicate, "predicate: `priority >= 3` is false for the record deleted (its last stored version)"))
    }

    @Test("updates: firesOn, enter and leave, the predicate before and after")
    func updates() throws {
        let low: [String: FieldValue] = ["priority": .int64(1)], high: [String: FieldValue] = ["priority": .int64(5)]
        func subscription(_ firesOn: [Subscription.Event]) -> Subscription {
            F.subscription("s", predicate: "priority >= 3", firesOn: firesOn)
        }
        let cases: [([Subscription.Event], RecordChange, FiringMiss.Rule, String)] = [
            ([.create], F.change(kind: .update, fields: high), .firesOn,
             "firesOn: firesOn [create] does not include update (nor enter/leave)"),
            ([.enter], F.change(kind: .update, fields: high), .firesOn,
             "firesOn: firesOn [enter] has enter/leave but not update, and the change carries no previousFields"),
            ([.update], F.change(kind: .update, fields: low), .predicate,
             "predicate: `priority >= 3` is false for the record after the update"),
            ([.update, .enter], F.change(kind: .update, fields: low, previous: low), .predicate,
             "predicate: `priority >= 3` is false for the record after the update (and before it)"),
            ([.enter], F.change(kind: .update, fields: low, previous: high), .firesOn,
             "firesOn: the record left the results (the predicate `priority >= 3` was true before the update, false after) but firesOn [enter] does not include leave"),
            ([.leave], F.change(kind: .update, fields: high, previous: low), .firesOn,
             "firesOn: the record entered the results (the predicate `priority >= 3` was false before the update, true after) but firesOn [leave] includes neither update nor enter"),
            ([.enter, .leave], F.change(kind: .update, fields: high, previous: high), .firesOn,
             "firesOn: the predicate `priority >= 3` holds before and after the update but firesOn [enter, leave] does not include update"),
        ]
        for (firesOn, change, rule, sentence) in cases {
            #expect(try miss(subscription(firesOn), change) == FiringMiss(rule, sentence), "firesOn \(firesOn)")
        }
    }

    @Test("zone subscriptions: the zone, then its owner")
    func zoneSubscriptions() throws {
        let other = ZoneID(zoneName: "Other", ownerRecordName: "_u1")
        #expect(try miss(F.subscription("z", type: .zone, zone: other), F.change(zone: notes)) == FiringMiss(
            .zone, "zone: the subscription watches Other (owner _u1), the change is in Notes (owner _u1)"))
        #expect(try miss(F.subscription("z", type: .zone, owner: "_u2", zone: notes), F.change(zone: notes)) == FiringMiss(
            .visibility, "visibility: the zone belongs to _u1, not to the subscription's owner _u2"))
    }

    @Test("database subscriptions: the default zone, the zone's owner, the share's participants")
    func databaseSubscriptions() throws {
        let database = F.subscription("d", type: .database)
        let defaultZone = ZoneID(zoneName: ZoneID.defaultZoneName, ownerRecordName: "_u1")
        #expect(try miss(database, F.change(zone: defaultZone)) == FiringMiss(
            .zone, "zone: changes in the private database's default zone do not fire database subscriptions"))
        #expect(try miss(database, F.change(zone: ZoneID(zoneName: "Notes", ownerRecordName: "_u2"))) == FiringMiss(
            .visibility, "visibility: the change's zone belongs to _u2, not to the subscription's owner _u1"))
        let shared = F.subscription("d", type: .database, database: .shared)
        #expect(try miss(shared, F.change(database: .shared, participants: ["_u2", "_u4"])) == FiringMiss(
            .visibility, "visibility: _u1 is not among the change's participants [_u2, _u4]"))
        #expect(try index.explain(shared, F.change(database: .shared, participants: ["_u1"])) == nil)
    }

    @Test("explain answers nil exactly when the index fires the subscription")
    func agreesWithMatching() throws {
        let values: [[String: FieldValue]?] = [nil, [:], ["priority": .int64(1)], ["priority": .int64(5)]]
        let firesOns: [[Subscription.Event]] = [[.create], [.update], [.delete], [.enter], [.leave], [.update, .enter, .leave]]
        let zones = [notes, ZoneID(zoneName: "Notes", ownerRecordName: "_u2"), ZoneID(zoneName: ZoneID.defaultZoneName, ownerRecordName: "_u1")]
        let subscriptions = firesOns.map { F.subscription("q", predicate: "priority >= 3", firesOn: $0) }
            + [F.subscription("z", type: .zone, zone: notes), F.subscription("d", type: .database)]
        var checked = 0
        for subscription in subscriptions {
            var alone = SubscriptionIndex()
            try alone.upsert(subscription)
            for kind in [RecordChange.Kind.create, .update, .delete] {
                for zone in zones {
                    for fields in values.compactMap({ $0 }) {
                        for previous in values {
                            let change = F.change(kind: kind, zone: zone, fields: fields, previous: previous)
                            let miss = try index.explain(subscription, change)
                            #expect((miss == nil) == !alone.matches(for: change).isEmpty, "\(subscription.subscriptionID) \(change)")
                            #expect(miss?.rule != .unexplained, "\(subscription.subscriptionID) \(change)")
                            checked += 1
                        }
                    }
                }
            }
        }
        #expect(checked == 8 * 3 * 3 * 3 * 4)
    }
}
