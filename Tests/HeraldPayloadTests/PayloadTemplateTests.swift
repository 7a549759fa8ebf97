import Foundation
import HeraldModel
import HeraldTestSupport
import Testing
@testable import HeraldPayload

/// The template path (``PayloadTemplates``) gives exactly what writing every payload
/// directly gives: the same notification, push bytes, pruning and problems.
@Suite("Push payload: templates", .timeLimit(.minutes(5)))
struct PayloadTemplateTests {
    /// Composes `match` with and without templates and requires the same result or the same error.
    static func expectSame(
        _ match: Match, templates: PayloadTemplates, limits: PayloadLimits = PayloadLimits(), badge: Int? = 3,
        locale: String? = "fr-CA", catalog: LocalizationCatalog? = nil, voip: Bool = false, _ note: String = ""
    ) {
        func compose(_ templates: PayloadTemplates?) -> Result<ComposedNotification, PayloadError> {
            Result { () throws(PayloadError) in
                try NotificationComposer(limits: limits, templates: templates).compose(
                    match, sequence: 7, createdAt: 1_795_300_000_123, badge: badge, locale: locale, catalog: catalog,
                    voip: voip)
            }
        }
        let direct = compose(nil)
        let templated = compose(templates)
        switch (direct, templated) {
        case (.success(let direct), .success(let templated)):
            #expect(templated == direct, "\(note)")
            #expect(templated.payload == direct.payload, "\(note): \(String(decoding: templated.payload, as: UTF8.self))")
            #expect(templated.notification.apns?.encodedPayload == direct.notification.apns?.encodedPayload, "\(note)")
        case (.failure(let direct), .failure(let templated)):
            #expect(templated.code == direct.code, "\(note)")
        default:
            Issue.record("\(note): direct \(direct), templated \(templated)")
        }
    }

    @Test("random subscriptions, several records each, random limits: template path == direct path")
    func randomInputs() {
        var g = SeededGenerator(seed: 1313)
        let templates = PayloadTemplates(admission: .firstNotification)
        for iteration in 0..<300 {
            let first = PayloadPropertyTests.match(&g)
            let voip = Int.random(in: 0..<8, using: &g) == 0
            let limit = Int.random(in: 0..<4, using: &g) == 0 ? Int.random(in: 40...1500, using: &g) : nil
            let limits = limit.map { PayloadLimits(maxBytes: $0, voipMaxBytes: $0) } ?? PayloadLimits()
            let catalog = Bool.random(using: &g) ? PayloadPropertyTests.catalog : nil
            // The same subscription with other records (the template made for the first is reused).
            for record in 0..<4 {
                var match = first
                if record > 0 {
                    let other = PayloadPropertyTests.match(&g)
                    match.change = other.change
                    match.queryNotificationReason = first.notificationType == .query ? other.queryNotificationReason : nil
                    match.notificationID = other.notificationID
                }
                let badge = Bool.random(using: &g) ? Int.random(in: -5...100_000, using: &g) : nil
                let locale = ["fr-CA", "en", "ja", nil].randomElement(using: &g)!
                Self.expectSame(
                    match, templates: templates, limits: limits, badge: badge, locale: locale, catalog: catalog,
                    voip: voip, "iteration \(iteration) record \(record)")
            }
        }
        // Most random subscriptions share the fixture's ID: their templates replace each other.
        #expect(templates.count >= 2)
    }

    @Test("a changed notification info under the same subscription ID gets a new template")
    func changedSubscription() {
        let templates = PayloadTemplates(admission: .firstNotification)
        var info = NotificationInfo(
            alertLocalizationKey: "K0", alertLocalizationArgs: ["title"], soundName: "default", shouldBadge: true,
            desiredKeys: ["title", "missing", "title"])
        var match = PayloadFixtures.match(info)
        Self.expectSame(match, templates: templates)
        info.alertLocalizationKey = nil
        info.alertBody = "Changed \"quoted\""
        info.desiredKeys = []
        match.subscription.notificationInfo = info
        Self.expectSame(match, templates: templates)
        match.subscription.database = .shared
        Self.expectSame(match, templates: templates)
        Self.expectSame(match, templates: templates, badge: nil)
        #expect(templates.count == 2)
    }

    @Test("texts holding a hole's marker, and values needing escapes, are written as directly")
    func markersAndEscapes() {
        let templates = PayloadTemplates(admission: .firstNotification)
        for hole in PayloadTemplate.Hole.allCases {
            let info = NotificationInfo(
                alertBody: hole.marker, title: "\u{1}\u{2}\"\\\n", soundName: hole.marker, shouldBadge: true,
                desiredKeys: ["title", "priority"], category: "\u{1}0\u{2}")
            var match = PayloadFixtures.match(info)
            match.notificationID = hole.marker
            match.change.recordName = "\"\u{1}7\u{2}\""
            Self.expectSame(match, templates: templates, "\(hole)")
            Self.expectSame(match, templates: templates, limits: PayloadLimits(maxBytes: 200), "\(hole), 200 bytes")
        }
    }

    @Test("the memo holds at most its capacity and starts over beyond it")
    func capacity() {
        let templates = PayloadTemplates(capacity: 3, admission: .firstNotification)
        var match = PayloadFixtures.match(NotificationInfo(alertBody: "Hi", shouldBadge: true))
        for number in 0..<7 {
            match.subscription.subscriptionID = "s-\(number)"
            Self.expectSame(match, templates: templates)
            #expect(templates.count <= 3)
        }
        #expect(templates.count >= 1)
    }

    @Test("by default a subscription gets its template on its second notification, and the bytes never change")
    func secondNotification() {
        let templates = PayloadTemplates()
        var match = PayloadFixtures.match(NotificationInfo(alertBody: "Hi", shouldBadge: true))
        // 40 subscriptions in turn, three times: none has a template after its first
        // notification, each has one after its second — but for two keys whose hashes share
        // one of the 4,096 slots of sightings, which keep replacing each other (on average
        // 0.2 such pairs; 5 pairs or more: about one run in a million).
        for round in 0..<3 {
            for number in 0..<40 {
                match.subscription.subscriptionID = "s-\(number)"
                Self.expectSame(match, templates: templates, "round \(round), s-\(number)")
            }
            if round == 0 { #expect(templates.count == 0) }
        }
        #expect(templates.count >= 32)
        #expect(templates.count <= 40)
    }

    @Test("the sighting filter remembers a hash until another takes its slot")
    func sightings() {
        var filter = SightingFilter(slots: 64)
        // 5 + 64 takes 5's slot, so 5 is then new again.
        let answers = [5, 5, 5 + 64, 5, -3, -3].map { filter.sawBefore($0) }
        #expect(answers == [false, true, false, false, false, true])
    }

    @Test("the catalog entries a template keeps are those of the catalog, locale and table asked for")
    func entriesFollowCatalogAndLocale() throws {
        func catalog(_ french: String) throws -> LocalizationCatalog {
            try LocalizationCatalog(files: [
                "en.lproj/Localizable.strings": Data(#""K0" = "%@ changed"; "T" = "Note";"#.utf8),
                "fr.lproj/Localizable.strings": Data("\"K0\" = \"\(french)\";".utf8),
                "en.lproj/Other.strings": Data(#""K0" = "other %@"; "T" = "Other title";"#.utf8),
            ], developmentLanguage: "en")
        }
        let first = try catalog("%@ a changé")
        let second = try catalog("« %@ » modifié")
        let templates = PayloadTemplates(admission: .firstNotification)
        let match = PayloadFixtures.match(NotificationInfo(
            alertLocalizationKey: "K0", alertLocalizationArgs: ["title"], titleLocalizationKey: "T"))
        func body(_ catalog: LocalizationCatalog, _ locale: String?, table: String = "Localizable") throws -> String? {
            try NotificationComposer(table: table, templates: templates).compose(
                match, sequence: 1, createdAt: 1, locale: locale, catalog: catalog).notification.rendered?.body
        }
        for _ in 0..<2 {
            #expect(try body(first, "fr-CA") == "Groceries a changé")
            #expect(try body(first, "fr-CA") == "Groceries a changé")
            #expect(try body(second, "fr-CA") == "« Groceries » modifié")
            #expect(try body(second, "en") == "Groceries changed")
            #expect(try body(second, nil) == "Groceries changed")
            #expect(try body(second, "en", table: "Other") == "other Groceries")
            #expect(try body(first, "fr") == "Groceries a changé")
        }
        #expect(templates.count == 1)
        for (catalog, locale) in [(first, "fr"), (second, "fr"), (second, "de"), (first, "en")] {
            Self.expectSame(match, templates: templates, locale: locale, catalog: catalog, "\(locale)")
        }
    }

    @Test("desired keys written from the template: escaped, sorted by bytes, some without a value")
    func desiredKeys() {
        let templates = PayloadTemplates(admission: .firstNotification)
        let info = NotificationInfo(
            alertBody: "Hi", desiredKeys: ["title", "é", "a\"b", "priority", "missing", "title", "Zed", "owner"])
        var match = PayloadFixtures.match(info)
        let all: [String: FieldValue] = [
            "title": .string("T \"1\""), "é": .int64(3), "a\"b": .double(1.5), "priority": .int64(5),
            "missing": .string("now here"), "Zed": .string("z"), "owner": .string("Alice"),
        ]
        for leftOut in [nil, "missing", "title", "é", "owner"] {
            var fields = all
            if let leftOut { fields[leftOut] = nil }
            match.change = PayloadFixtures.change(fields: fields)
            Self.expectSame(match, templates: templates, "without \(leftOut ?? "nothing")")
            Self.expectSame(match, templates: templates, limits: PayloadLimits(maxBytes: 300), "without \(leftOut ?? "nothing"), 300 bytes")
        }
        match.change = PayloadFixtures.change(fields: [:])
        Self.expectSame(match, templates: templates, "no desired key has a value")
        #expect(templates.count == 1)
    }
}
