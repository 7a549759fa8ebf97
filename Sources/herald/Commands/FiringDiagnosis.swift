import HeraldModel
import HeraldPredicate

/// Why a subscription does not fire for a record change, in the words of the subscription
/// rules (docs/cloudkit-behaviour.md §1): container, database, record type, zone, visibility, `firesOn`
/// and the predicate — for `herald payload build`, which can only compose what fires.
///
/// A diagnosis after the fact: the matcher decides; this only explains a miss, checking the
/// rules in the order a reader would and naming the first that fails.
enum FiringDiagnosis {
    /// The first rule the change fails for the subscription, as a sentence; a generic
    /// sentence when no single rule explains the miss.
    static func reason(_ subscription: Subscription, _ change: RecordChange, cloudKitRules: Bool) -> String {
        if subscription.container != change.container {
            return "container: the change is in \(change.container), the subscription in \(subscription.container)"
        }
        if subscription.database != change.database {
            return "database: the change is in the \(change.database.rawValue) database, the subscription in the \(subscription.database.rawValue) database"
        }
        let reason: String? = switch subscription.subscriptionType {
        case .query: queryReason(subscription, change, cloudKitRules: cloudKitRules)
        case .zone: zoneReason(subscription, change)
        case .database: databaseReason(subscription, change)
        }
        return reason ?? "no subscription rule (docs/cloudkit-behaviour.md §1) lets this change fire the subscription"
    }

    private static func queryReason(_ subscription: Subscription, _ change: RecordChange, cloudKitRules: Bool) -> String? {
        guard let query = subscription.query else { return "the query subscription has no query" }
        if query.recordType != change.recordType {
            return "record type: the changed record is of type \(change.recordType), the subscription watches \(query.recordType)"
        }
        if change.database != .public, change.zoneID.ownerRecordName != subscription.ownerRecordName {
            return "visibility: the change's zone belongs to \(change.zoneID.ownerRecordName); a \(change.database.rawValue)-database subscription of \(subscription.ownerRecordName) only sees zones \(subscription.ownerRecordName) owns"
        }
        if let zone = subscription.zoneID, zone != change.zoneID {
            return "zone: the subscription watches \(describe(zone)), the change is in \(describe(change.zoneID))"
        }
        let events = Set(subscription.firesOn)
        let firesOn = "firesOn [\(subscription.firesOn.map(\.rawValue).joined(separator: ", "))]"
        guard let predicate = try? RecordPredicate(query: query, cloudKitRules: cloudKitRules) else { return nil }
        let text = "`\(predicate.canonicalFormat)`"
        func holds(_ fields: [String: FieldValue]) -> Bool {
            predicate.evaluate(PredicateRecord(
                recordName: change.recordName, recordType: change.recordType, fields: fields,
                creationDate: change.creationDate, modificationDate: change.timestamp,
                createdBy: change.createdBy, modifiedBy: change.modifiedBy))
        }
        let after = holds(change.fields)
        switch change.kind {
        case .create, .delete:
            let event: Subscription.Event = change.kind == .create ? .create : .delete
            if !events.contains(event) { return "firesOn: \(firesOn) does not include \(event.rawValue)" }
            if !after {
                return "predicate: \(text) is false for the record \(change.kind == .create ? "created" : "deleted (its last stored version)")"
            }
        case .update:
            let wantsTransitions = events.contains(.enter) || events.contains(.leave)
            if !events.contains(.update) && !wantsTransitions {
                return "firesOn: \(firesOn) does not include update (nor enter/leave)"
            }
            if !events.contains(.update), change.previousFields == nil {
                return "firesOn: \(firesOn) has enter/leave but not update, and the change carries no previousFields"
            }
            let before = change.previousFields.map(holds)
            switch (before, after) {
            case (_, false) where !wantsTransitions || before != true:
                return "predicate: \(text) is false for the record after the update"
                    + (before == false ? " (and before it)" : "")
            case (true?, false):
                return "firesOn: the record left the results (the predicate \(text) was true before the update, false after) but \(firesOn) does not include leave"
            case (false?, true):
                return "firesOn: the record entered the results (the predicate \(text) was false before the update, true after) but \(firesOn) includes neither update nor enter"
            case (_, true) where !events.contains(.update):
                return "firesOn: the predicate \(text) holds before and after the update but \(firesOn) does not include update"
            default: break
            }
        }
        return nil
    }

    private static func zoneReason(_ subscription: Subscription, _ change: RecordChange) -> String? {
        guard let zone = subscription.zoneID else { return "the zone subscription names no zone" }
        if zone != change.zoneID {
            return "zone: the subscription watches \(describe(zone)), the change is in \(describe(change.zoneID))"
        }
        if change.zoneID.ownerRecordName != subscription.ownerRecordName {
            return "visibility: the zone belongs to \(change.zoneID.ownerRecordName), not to the subscription's owner \(subscription.ownerRecordName)"
        }
        return nil
    }

    private static func databaseReason(_ subscription: Subscription, _ change: RecordChange) -> String? {
        let owner = subscription.ownerRecordName
        switch change.database {
        case .private:
            if change.zoneID.isDefaultZone {
                return "zone: changes in the private database's default zone do not fire database subscriptions"
            }
            if change.zoneID.ownerRecordName != owner {
                return "visibility: the change's zone belongs to \(change.zoneID.ownerRecordName), not to the subscription's owner \(owner)"
            }
        case .shared:
            let participants = change.participants ?? []
            if !participants.contains(owner) {
                return "visibility: \(owner) is not among the change's participants [\(participants.joined(separator: ", "))]"
            }
        case .public:
            return "database: database subscriptions do not fire for public-database changes"
        }
        return nil
    }

    private static func describe(_ zone: ZoneID) -> String { "\(zone.zoneName) (owner \(zone.ownerRecordName))" }
}
