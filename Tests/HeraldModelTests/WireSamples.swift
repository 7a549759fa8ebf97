import Foundation
import HeraldModel
import HeraldTestSupport

/// Random wire values for the fast-codec property tests: every field type, optional members
/// present or not, strings with escapes, control characters and non-ASCII text.
struct WireSamples {
    var random: SeededGenerator

    init(seed: UInt64) { random = SeededGenerator(seed: seed) }

    mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }

    mutating func text(nonEmpty: Bool = true) -> String {
        let pieces = ["a", "Z", "note", "/", "\"", "\\", "\n", "\t", "\u{1}", "\u{1f}", "\u{7f}", "é", "e\u{301}", "😀", "\u{2028}", "日本", " ", "0"]
        let count = Int.random(in: (nonEmpty ? 1 : 0)...5, using: &random)
        return (0..<count).map { _ in pieces.randomElement(using: &random)! }.joined()
    }

    mutating func name() -> String {
        let letters = Array("abcdefghijXYZ")
        let tail = Array("abcXYZ019_")
        return String(letters.randomElement(using: &random)!)
            + String((0..<Int.random(in: 0...6, using: &random)).map { _ in tail.randomElement(using: &random)! })
    }

    mutating func integer() -> Int64 {
        switch Int.random(in: 0..<5, using: &random) {
        case 0: 0
        case 1: Int64.random(in: -10...10, using: &random)
        case 2: Int64.max
        case 3: Int64.min
        default: Int64.random(in: Int64.min...Int64.max, using: &random)
        }
    }

    mutating func double() -> Double {
        switch Int.random(in: 0..<6, using: &random) {
        case 0: -0.0
        case 1: Double(Int.random(in: -1000...1000, using: &random))
        case 2: Double.random(in: -1...1, using: &random)
        case 3: Double.random(in: -1e300...1e300, using: &random)
        case 4: Double.random(in: -1e-300...1e-300, using: &random)
        default: Double(Int64.random(in: -(1 << 60)...(1 << 60), using: &random)) + 0.5
        }
    }

    mutating func zoneID() -> ZoneID { ZoneID(zoneName: text(), ownerRecordName: text()) }

    mutating func optional<T>(_ make: (inout WireSamples) -> T) -> T? { chance(50) ? make(&self) : nil }

    mutating func scalar(_ type: FieldType) -> FieldValue {
        switch type {
        case .string: return .string(text(nonEmpty: false))
        case .int64: return .int64(integer())
        case .double: return .double(double())
        case .timestamp: return .timestamp(integer())
        case .bytes: return .bytes(Data((0..<Int.random(in: 0...9, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }))
        case .reference:
            let zone = optional { $0.zoneID() }
            return .reference(RecordReference(recordName: text(), zoneID: zone, action: chance(50) ? .none : .deleteSelf))
        case .location:
            return .location(Location(
                latitude: Double.random(in: -90...90, using: &random), longitude: Double.random(in: -180...180, using: &random),
                horizontalAccuracy: optional { $0.double() }, altitude: optional { $0.double() },
                timestamp: optional { $0.integer() }))
        case .assetID:
            return .asset(AssetReference(
                fileChecksum: text(), size: Int64.random(in: 0...Int64.max, using: &random),
                downloadURL: optional { $0.text() }))
        default:
            let element = type.elementType!
            return .list((0..<Int.random(in: 0...3, using: &random)).map { _ in scalar(element) }, of: element)
        }
    }

    mutating func fields() -> [String: FieldValue] {
        var fields: [String: FieldValue] = [:]
        for _ in 0..<Int.random(in: 0...5, using: &random) {
            fields[name()] = scalar(FieldType.allCases.randomElement(using: &random)!)
        }
        return fields
    }

    mutating func recordChange() -> RecordChange {
        let database = DatabaseScope.allCases.randomElement(using: &random)!
        return RecordChange(
            changeID: text(), container: text(), database: database, zoneID: zoneID(), recordType: text(),
            recordName: text(), kind: RecordChange.Kind.allCases.randomElement(using: &random)!, fields: fields(),
            previousFields: optional { $0.fields() }, modifiedBy: optional { $0.text() },
            originDevice: optional { $0.text() }, timestamp: Int64.random(in: 0...Int64.max, using: &random),
            participants: database == .shared ? optional { s in (0..<2).map { _ in s.text() } } : nil,
            createdBy: optional { $0.text() }, creationDate: optional { _ in 1_795_300_000_000 })
    }

    mutating func json(depth: Int = 0) -> JSONValue {
        switch Int.random(in: 0..<(depth > 2 ? 5 : 7), using: &random) {
        case 0: return .null
        case 1: return .bool(chance(50))
        case 2: return .integer(integer())
        case 3: return .double(double().rounded() == double() ? 0.5 : Double.random(in: -1e6...1e6, using: &random) + 0.25)
        case 4: return .string(text(nonEmpty: false))
        case 5: return .array((0..<Int.random(in: 0...3, using: &random)).map { _ in json(depth: depth + 1) })
        default:
            var members: [String: JSONValue] = [:]
            for _ in 0..<Int.random(in: 0...3, using: &random) { members[text()] = json(depth: depth + 1) }
            return .object(members)
        }
    }

    mutating func notificationInfo() -> NotificationInfo {
        NotificationInfo(
            alertBody: optional { $0.text(nonEmpty: false) }, alertLocalizationKey: optional { $0.text() },
            alertLocalizationArgs: chance(50) ? [name()] : [], title: optional { $0.text() },
            subtitleLocalizationArgs: chance(30) ? [name(), name()] : [], soundName: optional { $0.text() },
            shouldBadge: chance(50), shouldSendContentAvailable: chance(30), desiredKeys: chance(50) ? [name()] : [],
            collapseIDKey: optional { $0.name() })
    }

    mutating func subscription() -> Subscription {
        let type = Subscription.SubscriptionType.allCases.randomElement(using: &random)!
        let database = DatabaseScope.allCases.filter(type.isAllowed(in:)).randomElement(using: &random)!
        var query: SubscriptionQuery?
        if type == .query {
            if chance(50) {
                query = SubscriptionQuery(recordType: text(), predicate: "n > %@", arguments: [json()])
            } else {
                let location = FieldValue.location(Location(latitude: 1.5, longitude: -2))
                query = SubscriptionQuery(recordType: text(), filterBy: [
                    QueryFilter(comparator: .equals, fieldName: name(), fieldValue: scalar(.int64)),
                    QueryFilter(comparator: .near, fieldName: name(), fieldValue: location, distance: double().magnitude),
                ])
            }
        }
        return Subscription(
            subscriptionID: text(), subscriptionType: type, container: text(), database: database,
            ownerRecordName: text(), query: query, zoneID: type == .zone ? zoneID() : optional { $0.zoneID() },
            firesOn: type == .query ? [.create, .leave] : [], firesOnce: chance(30), notificationInfo: notificationInfo(),
            revision: optional { Int64.random(in: 0...Int64.max, using: &$0.random) })
    }

    mutating func match() -> Match {
        let subscription = subscription()
        let type: NotificationType = switch subscription.subscriptionType {
        case .query: .query
        case .zone: .recordZone
        case .database: .database
        }
        return Match(
            recipient: text(), notificationType: type,
            queryNotificationReason: type == .query ? QueryNotificationReason.allCases.randomElement(using: &random)! : nil,
            subscription: subscription, change: recordChange())
    }

    /// A random notification with every member its type needs (a query's subscription and
    /// reason, a scheduled one's schedule ID and fire date, …), so both decoders accept it.
    mutating func completeNotification() -> HeraldNotification {
        var notification = notification()
        notification.subscriptionID = notification.subscriptionID ?? "s1"
        notification.queryNotificationReason = notification.queryNotificationReason ?? .recordUpdated
        notification.recordID = notification.recordID ?? RecordID(recordName: "r", zoneID: zoneID())
        notification.recordZoneID = notification.recordZoneID ?? zoneID()
        notification.databaseScope = notification.databaseScope ?? .private
        notification.scheduleID = notification.scheduleID ?? "daily"
        notification.fireDate = notification.fireDate ?? 1_795_300_000_000
        return notification
    }

    mutating func notification() -> HeraldNotification {
        var notification = HeraldNotification(
            notificationID: text(), notificationType: NotificationType.allCases.randomElement(using: &random)!,
            containerIdentifier: text(), recipient: text(), sequence: Int64.random(in: 0...1000, using: &random),
            createdAt: 1_795_300_000_000, subscriptionID: optional { $0.text() }, isPruned: chance(20))
        notification.queryNotificationReason = optional { $0.random.next() % 2 == 0 ? .recordCreated : .recordLeft }
        notification.databaseScope = optional { _ in .shared }
        notification.recordID = optional { RecordID(recordName: $0.text(), zoneID: $0.zoneID()) }
        notification.recordZoneID = optional { $0.zoneID() }
        notification.recordFields = optional { s in
            Dictionary((0..<2).map { _ in (s.name(), s.json()) }, uniquingKeysWith: { first, _ in first })
        }
        notification.badge = optional { s in Int.random(in: 0...99, using: &s.random) }
        notification.alertBody = optional { $0.text(nonEmpty: false) }
        notification.alertLocalizationArgs = optional { [$0.text(), $0.text()] }
        notification.title = optional { $0.text() }
        notification.subtitleLocalizationKey = optional { $0.text() }
        notification.fireDate = optional { $0.integer() }
        notification.hasAction = optional { $0.chance(50) }
        notification.userInfo = optional { s in [s.text(): s.json()] }
        notification.rendered = optional { RenderedAlert(locale: "fr-FR", title: $0.optional { $0.text() }, body: $0.text()) }
        notification.apns = optional { s in
            APNsPush(pushType: .alert, priority: .immediate, collapseID: s.optional { $0.name() },
                payload: .object(["aps": .object(["alert": .string(s.text())]), "ck": s.json()]))
        }
        return notification
    }

    mutating func badgeCount() -> BadgeCount {
        let badge = Int.random(in: 0...Int.max, using: &random) >> Int.random(in: 0...62, using: &random)
        return BadgeCount(recipient: text(), containerIdentifier: text(), badge: badge)
    }

    mutating func notificationRead() -> NotificationRead {
        let count = chance(5) ? NotificationRead.maximumNotificationIDs : Int.random(in: 1...4, using: &random)
        return NotificationRead(
            recipient: text(), containerIdentifier: text(), notificationIDs: (0..<count).map { _ in text() },
            readAt: Int64.random(in: 0...Int64.max, using: &random) >> Int64.random(in: 0...62, using: &random))
    }
}
