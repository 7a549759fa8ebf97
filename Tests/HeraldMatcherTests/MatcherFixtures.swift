import HeraldModel

enum MatcherFixtures {
    static let container = "iCloud.com.example.notes"

    static func subscription(
        _ id: String, type: Subscription.SubscriptionType = .query, database: DatabaseScope = .private,
        owner: String = "_u1", recordType: String = "Note", predicate: String? = "TRUEPREDICATE",
        arguments: [JSONValue]? = nil, filterBy: [QueryFilter]? = nil, zone: ZoneID? = nil, firesOn: [Subscription.Event] = [.create, .update, .delete],
        firesOnce: Bool = false, desiredKeys: [String] = []
    ) -> Subscription {
        var info = NotificationInfo()
        info.desiredKeys = desiredKeys
        info.alertBody = "changed"
        return Subscription(
            subscriptionID: id, subscriptionType: type, container: container, database: database,
            ownerRecordName: owner,
            query: type == .query
                ? SubscriptionQuery(recordType: recordType, predicate: filterBy == nil ? predicate : nil, arguments: arguments, filterBy: filterBy)
                : nil,
            zoneID: zone, firesOn: type == .query ? firesOn : [], firesOnce: firesOnce, notificationInfo: info)
    }

    static func change(
        _ id: String = "c-1", kind: RecordChange.Kind = .create, database: DatabaseScope = .private,
        zone: ZoneID = ZoneID(zoneName: "Notes", ownerRecordName: "_u1"), recordType: String = "Note",
        fields: [String: FieldValue] = [:], previous: [String: FieldValue]? = nil, participants: [String]? = nil
    ) -> RecordChange {
        RecordChange(
            changeID: id, container: container, database: database, zoneID: zone, recordType: recordType,
            recordName: "note-42", kind: kind, fields: fields, previousFields: previous, modifiedBy: zone.ownerRecordName,
            originDevice: "d-1", timestamp: 1_795_300_000_000, participants: participants)
    }
}
