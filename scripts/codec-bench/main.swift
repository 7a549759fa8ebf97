import Foundation

// Micro comparison of the two paths of WireCodec on typical messages, in one release
// binary: Foundation's JSONDecoder/JSONEncoder (decodeWithFoundation, encodeWithFoundation)
// against the fast reader and writer. Compiled into the HeraldModel module by
// scripts/codec-bench.sh (so it needs no product of its own); prints operations per second.
let change = Data(#"{"changeID": "c-0001", "container": "iCloud.com.example.notes", "database": "private", "zoneID": {"zoneName": "Notes", "ownerRecordName": "_alice"}, "recordType": "Note", "recordName": "note-42", "kind": "create", "fields": {"title": {"value": "Call the plumber", "type": "STRING"}, "priority": {"value": 5, "type": "INT64"}, "tags": {"value": ["home", "urgent"], "type": "STRING_LIST"}}, "modifiedBy": "_alice", "originDevice": "d-77", "timestamp": 1795300000000}"#.utf8)
let subscriptionJSON = Data(#"{"subscriptionID": "urgent-notes", "subscriptionType": "query", "container": "iCloud.com.example.notes", "database": "private", "ownerRecordName": "_alice", "query": {"recordType": "Note", "predicate": "priority >= %@ AND tags CONTAINS 'urgent'", "arguments": [3]}, "firesOn": ["create", "update"], "notificationInfo": {"titleLocalizationKey": "NOTE_TITLE", "alertLocalizationKey": "NOTE_CHANGED", "alertLocalizationArgs": ["title"], "soundName": "default", "shouldBadge": true, "desiredKeys": ["title"]}}"#.utf8)
// A typical query notification: alert with a localized title and body, badge, sound,
// desired keys, rendered text and the APNs push.
func typicalNotification() -> HeraldNotification {
    var notification = HeraldNotification(
        notificationID: "5b1c0f6e-2d3a-5c1b-9e8f-0a1b2c3d4e5f", notificationType: .query,
        containerIdentifier: "iCloud.com.example.notes", recipient: "_alice", sequence: 42, createdAt: 1_795_300_000_123,
        subscriptionID: "urgent-notes", subscriptionOwnerUserRecordID: "_alice")
    notification.queryNotificationReason = .recordUpdated
    notification.databaseScope = .private
    notification.recordID = RecordID(recordName: "note-42", zoneID: ZoneID(zoneName: "Notes", ownerRecordName: "_alice"))
    notification.recordFields = ["title": "Call the plumber"]
    notification.badge = 3
    notification.soundName = "default"
    notification.alertLocalizationKey = "NOTE_CHANGED"
    notification.alertLocalizationArgs = ["Call the plumber"]
    notification.titleLocalizationKey = "NOTE_TITLE"
    notification.rendered = RenderedAlert(locale: "fr-FR", title: "Note", body: "« Call the plumber » a changé")
    notification.excludedDevice = "d-77"
    let alert: JSONValue = ["title-loc-key": "NOTE_TITLE", "loc-key": "NOTE_CHANGED", "loc-args": ["Call the plumber"]]
    let query: JSONValue = ["sid": "urgent-notes", "dbs": 1, "zid": "Notes", "zoid": "_alice", "rid": "note-42", "fo": 2]
    notification.apns = APNsPush(pushType: .alert, priority: .immediate, payload: [
        "aps": ["alert": alert, "badge": 3, "sound": "default"],
        "ck": ["ce": 2, "cid": "iCloud.com.example.notes", "nid": "5b1c0f6e", "ckuserid": "_alice", "qry": query],
    ])
    return notification
}
let codec = WireCodec()
let recordChange = try codec.decodeWithFoundation(RecordChange.self, from: change)
let subscription = try codec.decodeWithFoundation(Subscription.self, from: subscriptionJSON)
let match = Match(recipient: "_alice", notificationType: .query, queryNotificationReason: .recordCreated, subscription: subscription, change: recordChange)
let matchJSON = try codec.encodeWithFoundation(match)
let notification = typicalNotification()
let fastMatch = try codec.encode(match)
let fastNotification = try codec.encode(notification)
precondition(fastMatch == matchJSON)
let foundationNotification = try codec.encodeWithFoundation(notification)
precondition(fastNotification == foundationNotification)

func rate(_ name: String, _ body: () throws -> Int) rethrows -> Double {
    var best = 0.0
    for _ in 0..<3 {
        let clock = ContinuousClock()
        var count = 0
        let start = clock.now
        while clock.now - start < .milliseconds(700) { count += try body() }
        let seconds = Double((clock.now - start).components.attoseconds) / 1e18 + Double((clock.now - start).components.seconds)
        best = max(best, Double(count) / seconds)
    }
    return best
}
func row(_ name: String, _ foundation: () throws -> Int, _ fast: () throws -> Int) rethrows {
    let before = try rate(name, foundation)
    let after = try rate(name, fast)
    func pad(_ text: String, _ width: Int) -> String { text.padding(toLength: width, withPad: " ", startingAt: 0) }
    print(pad(name, 28) + String(format: "%12.0f/s %12.0f/s %6.1fx", before, after, after / before))
}
print("operation                     Foundation/s        fast/s   ratio")
try row("decode RecordChange", { for _ in 0..<100 { _ = try codec.decodeWithFoundation(RecordChange.self, from: change) }; return 100 },
    { for _ in 0..<100 { _ = try codec.decode(RecordChange.self, from: change) }; return 100 })
try row("encode Match", { for _ in 0..<100 { _ = try codec.encodeWithFoundation(match) }; return 100 },
    { for _ in 0..<100 { _ = try codec.encode(match) }; return 100 })
try row("decode Match", { for _ in 0..<100 { _ = try codec.decodeWithFoundation(Match.self, from: matchJSON) }; return 100 },
    { for _ in 0..<100 { _ = try codec.decode(Match.self, from: matchJSON) }; return 100 })
try row("encode HeraldNotification", { for _ in 0..<100 { _ = try codec.encodeWithFoundation(notification) }; return 100 },
    { for _ in 0..<100 { _ = try codec.encode(notification) }; return 100 })
print("bytes: change \(change.count), match \(matchJSON.count), notification \(try codec.encode(notification).count)")
