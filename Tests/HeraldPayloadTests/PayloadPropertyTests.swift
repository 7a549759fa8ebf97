import Foundation
import HeraldModel
import HeraldTestSupport
import Testing
@testable import HeraldPayload

/// Thousands of random notifications with huge and hostile values: the payload is always
/// valid JSON within the limit, carries the notification ID, says when it was pruned, and
/// the notification keeps everything.
@Suite("Push payload: random notifications", .timeLimit(.minutes(5)))
struct PayloadPropertyTests {
    static let pieces = [
        "a", "Z", "word ", "é", "e\u{301}", "👨‍👩‍👧‍👦", "🇫🇷", "🐦", "\"", "\\", "\n", "\t", "\u{0}", "\u{1F}", "\u{7F}",
        "\u{2028}", "日本語", "עברית", "%@", "%1$@", "%d", "%", "%%", "%q", " ", "…", "\u{FEFF}", "z\u{301}\u{302}\u{303}",
    ]

    static func text(_ g: inout SeededGenerator) -> String {
        var result = ""
        for _ in 0..<Int.random(in: 0...12, using: &g) {
            let piece = pieces.randomElement(using: &g)!
            // Now and then a huge run of one piece.
            result += Int.random(in: 0..<20, using: &g) == 0
                ? String(repeating: piece, count: Int.random(in: 50...1500, using: &g)) : piece
        }
        return result
    }

    static func maybe(_ g: inout SeededGenerator, _ make: (inout SeededGenerator) -> String) -> String? {
        Bool.random(using: &g) ? make(&g) : nil
    }

    static let fieldNames = ["f0", "f1", "f2", "f3", "f4", "f5", "f6", "missing"]

    static func fieldValue(_ g: inout SeededGenerator) -> FieldValue {
        switch Int.random(in: 0...9, using: &g) {
        case 0: .int64(Int64.random(in: .min ... .max, using: &g))
        case 1: .double(Double.random(in: -1e9...1e9, using: &g))
        case 2: .timestamp(Int64.random(in: 0...4_000_000_000_000, using: &g))
        case 3: .reference(RecordReference(recordName: text(&g).isEmpty ? "r" : text(&g)))
        case 4: .location(Location(latitude: .random(in: -90...90, using: &g), longitude: .random(in: -180...180, using: &g)))
        case 5: .asset(AssetReference(fileChecksum: "ck", size: 1))
        case 6: .bytes(Data(repeating: 7, count: 3))
        case 7: .list((0..<Int.random(in: 0...30, using: &g)).map { _ in .string(text(&g)) }, of: .string)
        default: .string(text(&g))
        }
    }

    static func names(_ g: inout SeededGenerator) -> [String] {
        (0..<Int.random(in: 0...4, using: &g)).map { _ in fieldNames.randomElement(using: &g)! }
    }

    static func key(_ g: inout SeededGenerator) -> String? {
        Bool.random(using: &g) ? ["K0", "K1", "K2", "NONE", text(&g) + "x"].randomElement(using: &g)! : nil
    }

    static let catalog: LocalizationCatalog? = try? LocalizationCatalog(files: [
        "en.lproj/Localizable.strings": Data(#""K0" = "%@ did %@"; "K1" = "%2$@ %1$@ %3$@"; "K2" = "%d%% %q";"#.utf8),
        "fr.lproj/Localizable.strings": Data(#""K0" = "« %@ » %@";"#.utf8),
    ], developmentLanguage: "en")

    static func match(_ g: inout SeededGenerator) -> Match {
        let info = NotificationInfo(
            alertBody: maybe(&g, text), alertLocalizationKey: key(&g), alertLocalizationArgs: names(&g),
            title: maybe(&g, text), titleLocalizationKey: key(&g), titleLocalizationArgs: names(&g),
            subtitle: maybe(&g, text), subtitleLocalizationKey: key(&g), subtitleLocalizationArgs: names(&g),
            alertActionLocalizationKey: maybe(&g, text), alertLaunchImage: maybe(&g, text), soundName: maybe(&g, text),
            shouldBadge: .random(using: &g), shouldSendContentAvailable: .random(using: &g),
            shouldSendMutableContent: .random(using: &g), desiredKeys: names(&g), category: maybe(&g, text),
            collapseIDKey: Bool.random(using: &g) ? fieldNames.randomElement(using: &g) : nil)
        var fields: [String: FieldValue] = [:]
        for name in fieldNames.dropLast() where Int.random(in: 0...4, using: &g) > 0 { fields[name] = fieldValue(&g) }
        let change = PayloadFixtures.change(
            kind: [.create, .update, .delete].randomElement(using: &g)!, fields: fields,
            changeID: "c-\(UInt32.random(in: 0 ... .max, using: &g))",
            recordName: Bool.random(using: &g) ? "note-42" : "r-" + text(&g))
        let type: NotificationType = [.query, .query, .recordZone, .database].randomElement(using: &g)!
        var match = PayloadFixtures.match(
            info, reason: [.recordCreated, .recordUpdated, .recordDeleted, .recordEntered, .recordLeft].randomElement(using: &g)!,
            type: type, change: change)
        if Int.random(in: 0..<10, using: &g) == 0 {
            match.subscription.subscriptionID = text(&g) + "s"
            match.notificationID = Match.notificationID(
                changeID: change.changeID, owner: match.subscription.ownerRecordName, subscriptionID: match.subscription.subscriptionID)
        }
        return match
    }

    @Test("3000 random notifications: valid JSON, within the limit, with nid, p iff pruned, nothing lost")
    func randomNotifications() throws {
        var g = SeededGenerator(seed: 2026)
        var pruned = 0
        var refused = 0
        for iteration in 0..<3000 {
            let match = Self.match(&g)
            let info = match.subscription.notificationInfo
            let voip = Int.random(in: 0..<8, using: &g) == 0
            let limit = Int.random(in: 0..<4, using: &g) == 0 ? Int.random(in: 40...1500, using: &g) : nil
            let limits = limit.map { PayloadLimits(maxBytes: $0, voipMaxBytes: $0) } ?? PayloadLimits()
            let maxBytes = limits.maxBytes(voip: voip)
            let badge = Bool.random(using: &g) ? Int.random(in: 0...100_000, using: &g) : nil
            let locale = ["fr-CA", "en", "ja", nil].randomElement(using: &g)!
            let catalog = Bool.random(using: &g) ? Self.catalog : nil

            let composed: ComposedNotification
            do {
                composed = try NotificationComposer(limits: limits).compose(
                    match, sequence: Int64(iteration), createdAt: 1, badge: badge, locale: locale, catalog: catalog,
                    voip: voip)
            } catch {
                // Only when even {"aps":{},"ck":{"nid":…,"p":1}} does not fit.
                #expect(error.code == .payloadTooLarge)
                #expect(#"{"aps":{},"ck":{"nid":"\#(match.notificationID)","p":1}}"#.utf8.count > maxBytes)
                refused += 1
                continue
            }
            let bytes = composed.payload
            #expect(bytes.count <= maxBytes, "iteration \(iteration)")
            let parsed = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any],
                                      "iteration \(iteration): not JSON")
            #expect(parsed["aps"] is [String: Any])
            let ck = try #require(parsed["ck"] as? [String: Any])
            #expect(ck["nid"] as? String == match.notificationID)
            #expect((ck["p"] as? Int == 1) == composed.notification.isPruned)
            #expect(composed.notification.isPruned == !composed.pruning.isEmpty)
            #expect(["qry", "fet", "met"].filter { ck[$0] != nil }.count <= 1)
            if !composed.notification.isPruned {
                #expect(ck[["query": "qry", "recordZone": "fet", "database": "met"][match.notificationType.rawValue]!] != nil)
            }
            if composed.notification.isPruned { pruned += 1 }

            // The value in the notification is the bytes' content, and re-encoding it takes the same room.
            let payload = try #require(composed.notification.apns?.payload)
            let content = try PayloadFixtures.jsonValue(bytes)
            #expect(content == payload)
            #expect(try WireCodec().encode(payload).count == bytes.count)
            // The notification carries the payload written once with sorted keys: exactly what
            // WireCodec writes for the APNs bytes' content, and the notification's fast
            // encoding (which copies those bytes) is Foundation's.
            let canonical = try #require(composed.notification.apns?.encodedPayload)
            #expect(canonical == Array(try WireCodec().encode(content)))
            if iteration % 20 == 0 {
                #expect(try WireCodec().encode(composed.notification) == WireCodec().encodeWithFoundation(composed.notification))
            }

            // The notification keeps every value, whatever the push had to drop.
            let notification = composed.notification
            #expect(notification.alertBody == info.alertBody)
            #expect(notification.title == info.title)
            #expect(notification.subtitle == info.subtitle)
            #expect(notification.soundName == info.soundName)
            #expect(notification.category == info.category)
            #expect(notification.alertLaunchImage == info.alertLaunchImage)
            #expect(notification.alertLocalizationKey == info.alertLocalizationKey)
            if info.alertLocalizationKey != nil, !info.alertLocalizationArgs.isEmpty {
                #expect(notification.alertLocalizationArgs?.count == info.alertLocalizationArgs.count)
            }
            #expect(notification.badge == (info.shouldBadge ? badge : nil))
            if match.notificationType == .query {
                let present = Set(info.desiredKeys.filter { match.change.fields[$0]?.desiredKeyValue() != nil })
                #expect(Set(notification.recordFields?.keys.map { $0 } ?? []) == present)
                for value in notification.recordFields?.values.map({ $0 }) ?? [] {
                    if case .string(let text) = value { #expect(text.count <= 100) }
                }
            }
            if let collapseID = notification.apns?.collapseID { #expect(collapseID.utf8.count <= 64) }

            // It is a valid notification on the wire.
            if iteration % 10 == 0 {
                _ = try WireCodec().decode(HeraldNotification.self, from: WireCodec().encode(notification))
            }
        }
        #expect(pruned > 300)
        #expect(refused > 0)
    }

    @Test("timing sanity check (printed, never asserted)")
    func timing() throws {
        let info = NotificationInfo(
            alertLocalizationKey: "K0", alertLocalizationArgs: ["title", "priority"], titleLocalizationKey: "K1",
            soundName: "default", shouldBadge: true, desiredKeys: ["title", "priority"])
        let match = PayloadFixtures.match(info)
        let composer = NotificationComposer()
        let count = 20_000
        var bytes = 0
        let clock = ContinuousClock()
        let elapsed = try clock.measure {
            for sequence in 0..<count {
                bytes &+= try composer.compose(match, sequence: Int64(sequence), createdAt: 1, badge: 3, locale: "fr-CA",
                                               catalog: Self.catalog).payload.count
            }
        }
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        print("payload timing: \(Int(Double(count) / seconds)) typical notifications/s (\(bytes / count) bytes each; debug builds are slower)")
    }
}
