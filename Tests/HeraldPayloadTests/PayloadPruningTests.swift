import Foundation
import HeraldModel
import Testing
@testable import HeraldPayload

/// Size limits and pruning in CloudKit's importance order (docs/cloudkit-behaviour.md §5).
@Suite("Push payload: size limits and pruning")
struct PayloadPruningTests {
    typealias F = PayloadFixtures

    /// Every prunable field present, texts of one character (too short to shorten).
    static let everything = NotificationInfo(
        alertBody: "B", alertLocalizationKey: "LK", alertLocalizationArgs: ["title"], title: "T",
        titleLocalizationKey: "TK", titleLocalizationArgs: ["priority"], subtitle: "S", subtitleLocalizationKey: "SK",
        subtitleLocalizationArgs: ["title", "priority"], alertActionLocalizationKey: "AK", alertLaunchImage: "L.png",
        soundName: "default", shouldBadge: true, shouldSendContentAvailable: true, shouldSendMutableContent: true,
        desiredKeys: ["title", "priority"], category: "NOTE")

    /// The JSON keys each field stands for, to check they left the payload.
    static func keys(of field: PayloadField) -> [String] {
        switch field {
        case .subtitle: ["subtitle"]
        case .subtitleLocalizationArgs: ["subtitle-loc-args"]
        case .subtitleLocalizationKey: ["subtitle-loc-key"]
        case .title: ["title"]
        case .titleLocalizationArgs: ["title-loc-args"]
        case .titleLocalizationKey: ["title-loc-key"]
        case .containerIdentifier: ["cid"]
        case .recordID: ["rid", "zid", "zoid"]
        case .reason: ["fo"]
        case .desiredKeys: ["af"]
        case .category: ["category"]
        case .mutableContent: ["mutable-content"]
        case .contentAvailable: ["content-available"]
        case .soundName: ["sound"]
        case .alertLaunchImage: ["launch-image"]
        case .alertActionLocalizationKey: ["action-loc-key"]
        case .alertBody: ["body", "alert"]
        case .alertLocalizationArgs: ["loc-args"]
        case .alertLocalizationKey: ["loc-key"]
        case .badge: ["badge"]
        case .subscriptionOwner: ["ckuserid"]
        case .databaseScope: ["dbs"]
        case .subscriptionID: ["sid"]
        case .payloadVersion: ["ce"]
        }
    }

    /// Every key in a parsed JSON value, at any depth, except the record's field names inside `af`.
    static func allKeys(_ value: Any) -> Set<String> {
        guard let object = value as? [String: Any] else { return [] }
        return object.reduce(into: Set(object.keys)) { keys, member in
            if member.key != "af" { keys.formUnion(allKeys(member.value)) }
        }
    }

    @Test("a payload that fits is not pruned and has no p")
    func fits() throws {
        let composed = try F.compose(F.match(Self.everything), badge: 1)
        #expect(composed.pruning.isEmpty)
        #expect(composed.notification.isPruned == false)
        #expect(!Self.allKeys(try F.parse(composed.payload)).contains("p"))
    }

    @Test("one byte less at a time drops exactly one more field, in CloudKit's order, never the ID")
    func pruningOrder() throws {
        let match = F.match(Self.everything)
        let full = try F.compose(match, badge: 1)
        var limit = full.payload.count - 1
        var steps = 0
        while true {
            let composed: ComposedNotification
            do {
                composed = try F.compose(match, badge: 1, limits: PayloadLimits(maxBytes: limit))
            } catch let error as PayloadError {
                #expect(error.code == .payloadTooLarge)
                break
            }
            steps += 1
            let expected = Array(PayloadField.allCases.prefix(steps))
            #expect(composed.pruning == expected.map(PruningStep.dropped), "limit \(limit)")
            #expect(composed.payload.count <= limit)
            let keys = Self.allKeys(try F.parse(composed.payload))
            #expect(keys.contains("nid") && keys.contains("p"))
            for field in expected {
                for key in Self.keys(of: field) where field != .alertBody || key == "body" {
                    #expect(!keys.contains(key), "\(field) left \(key) at step \(steps)")
                }
            }
            // The notification keeps everything.
            #expect(composed.notification.isPruned)
            #expect(composed.notification.subtitle == "S")
            #expect(composed.notification.recordFields == ["title": "Groceries", "priority": 5])
            #expect(composed.notification.badge == 1)
            limit = composed.payload.count - 1
        }
        #expect(steps == PayloadField.allCases.count)
        let minimal = #"{"aps":{},"ck":{"nid":"\#(match.notificationID)","p":1}}"#
        #expect(limit == minimal.utf8.count - 1)
        let smallest = try F.compose(match, badge: 1, limits: PayloadLimits(maxBytes: minimal.utf8.count))
        #expect(F.text(smallest) == minimal)
    }

    @Test("a limit below the smallest payload is an error")
    func tooSmall() throws {
        for limit in [0, 10, 50] {
            #expect {
                try F.compose(F.match(NotificationInfo(alertBody: "x")), limits: PayloadLimits(maxBytes: limit))
            } throws: { ($0 as? PayloadError)?.code == .payloadTooLarge }
        }
    }

    @Test("a small overflow shortens the subtitle just enough, at a grapheme boundary")
    func shortenSubtitle() throws {
        let subtitle = String(repeating: "é👍🏽", count: 100)
        let info = NotificationInfo(alertBody: "Body", title: "Title", subtitle: subtitle)
        let full = try F.compose(F.match(info))
        let limit = full.payload.count - 20
        let composed = try F.compose(F.match(info), limits: PayloadLimits(maxBytes: limit))
        #expect(composed.pruning == [.shortened(.subtitle)])
        #expect(composed.payload.count <= limit)
        #expect(composed.payload.count > limit - 8 - 1)  // at most one grapheme (8 bytes) short
        let sent = try #require(composed.notification.apns?.payload["aps"]?["alert"]?["subtitle"]?.stringValue)
        #expect(sent.hasSuffix("…"))
        #expect(subtitle.hasPrefix(String(sent.dropLast())))
        #expect(composed.notification.subtitle == subtitle)
        #expect(composed.notification.title == "Title")
    }

    @Test("a huge body: less important fields go first, then the body is shortened")
    func hugeBody() throws {
        let body = String(repeating: "Lorem ipsum 😀 e\u{301} \"q\" \\ \n", count: 400)
        let info = NotificationInfo(
            alertBody: body, title: "Title", soundName: "default", shouldBadge: true, desiredKeys: ["title"],
            category: "NOTE")
        let composed = try F.compose(F.match(info), badge: 9)
        #expect(composed.pruning == [
            .dropped(.title), .dropped(.containerIdentifier), .dropped(.recordID),
            .dropped(.reason), .dropped(.desiredKeys), .dropped(.category),
            .dropped(.soundName), .shortened(.alertBody),
        ])
        #expect(composed.payload.count <= 4096)
        #expect(composed.payload.count >= 4096 - 30)
        let parsed = try #require(try F.parse(composed.payload) as? [String: Any])
        let aps = try #require(parsed["aps"] as? [String: Any])
        let sent = try #require(aps["alert"] as? String)  // only the body left: a plain string
        #expect(sent.hasSuffix("…"))
        #expect(body.hasPrefix(String(sent.dropLast())))
        #expect(aps["badge"] as? Int == 9)
        let ck = try #require(parsed["ck"] as? [String: Any])
        #expect(ck["p"] as? Int == 1)
        #expect(ck["nid"] as? String == composed.notification.notificationID)
        #expect(composed.notification.alertBody == body)
        #expect(composed.notification.title == "Title")
        #expect(composed.notification.recordFields == ["title": "Groceries"])
        #expect(composed.notification.isPruned)
        #expect(composed.notification.apns?.pushType == .alert)
        #expect(try F.jsonValue(composed.payload) == composed.notification.apns?.payload)
    }

    @Test("dropping the title turns the alert into a plain string")
    func alertBecomesString() throws {
        let info = NotificationInfo(alertBody: "Body", title: String(repeating: "t", count: 40))
        let full = try F.compose(F.match(info))
        let composed = try F.compose(F.match(info), limits: PayloadLimits(maxBytes: full.payload.count - 45))
        #expect(composed.pruning == [.dropped(.title)])
        #expect(F.text(composed).hasPrefix(#"{"aps":{"alert":"Body"},"#))
    }

    @Test("VoIP pushes may take 5120 bytes, others 4096", arguments: [false, true])
    func voip(voip: Bool) throws {
        let info = NotificationInfo(alertBody: String(repeating: "v", count: 4500))
        let composed = try F.compose(F.match(info), voip: voip)
        #expect(composed.notification.isPruned == !voip)
        #expect(composed.payload.count <= (voip ? 5120 : 4096))
        #expect(composed.notification.apns?.pushType == (voip ? .voip : .alert))
    }

    @Test("limits are configurable")
    func configurable() throws {
        let info = NotificationInfo(alertBody: String(repeating: "w", count: 3000))
        let limits = PayloadLimits(maxBytes: 1000, voipMaxBytes: 2000)
        let standard = try F.compose(F.match(info), limits: limits)
        let voip = try F.compose(F.match(info), limits: limits, voip: true)
        #expect(standard.payload.count <= 1000 && standard.payload.count > 990)
        #expect(voip.payload.count <= 2000 && voip.payload.count > 1990)
        #expect(PayloadLimits() == PayloadLimits(maxBytes: 4096, voipMaxBytes: 5120, maxValueCharacters: 100, maxCollapseIDBytes: 64))
    }

    @Test("the 100-character cut is configurable too")
    func valueCharacters() throws {
        let info = NotificationInfo(desiredKeys: ["title"])
        let composed = try F.compose(F.match(info), limits: PayloadLimits(maxValueCharacters: 4))
        #expect(composed.notification.recordFields == ["title": "Groc"])
    }
}
