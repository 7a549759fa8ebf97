import Foundation
import HeraldModel
import Testing
@testable import HeraldPayload

/// Server-side rendering into `rendered`, and the subscription-time validation of
/// notification info.
@Suite("Alert rendering and notification-info validation")
struct AlertRenderingTests {
    typealias F = PayloadFixtures

    static func catalog() throws -> LocalizationCatalog {
        func strings(_ text: String) -> Data { Data(text.utf8) }
        return try LocalizationCatalog(files: [
            "en.lproj/Localizable.strings": strings(#"""
                "NOTE_TITLE" = "Note";
                "NOTE_CHANGED" = "“%@” changed";
                "TWO" = "%2$@ before %1$@";
                "PERCENT" = "%d%% done";
                "MISSING_ARG" = "%1$@ and %2$@";
                "BAD" = "%q oops %@";
                "NUMBER" = "priority %d, ratio %.1f";
                "EN_ONLY" = "English only";
                """#),
            "en.lproj/Localizable.stringsdict": Fixtures.plist(Fixtures.entry(
                "ITEMS", format: "%#@n@", Fixtures.variable("n", ["one": "%d item", "other": "%d items"]))),
            "fr.lproj/Localizable.strings": strings(#"""
                "NOTE_TITLE" = "Note";
                "NOTE_CHANGED" = "« %@ » a changé";
                """#),
            "fr-CA.lproj/Localizable.strings": strings(#""NOTE_TITLE" = "Mémo";"#),
            "fr.lproj/Localizable.stringsdict": Fixtures.plist(Fixtures.entry(
                "ITEMS", format: "%#@n@", Fixtures.variable("n", ["one": "%d élément", "other": "%d éléments"]))),
        ], developmentLanguage: "en")
    }

    static let localized = NotificationInfo(
        alertLocalizationKey: "NOTE_CHANGED", alertLocalizationArgs: ["title"], titleLocalizationKey: "NOTE_TITLE",
        soundName: "default")

    /// `used`: the localization of the body (issue 16; it used to echo the request).
    @Test("the recipient's locale with its fallback chain; keys and args stay in the push", arguments: [
        ("fr-CA", "Mémo", "« Groceries » a changé", "fr"),
        ("fr-FR", "Note", "« Groceries » a changé", "fr"),
        ("fr", "Note", "« Groceries » a changé", "fr"),
        ("de-AT", "Note", "“Groceries” changed", "en"),
        ("en", "Note", "“Groceries” changed", "en"),
    ])
    func localized(locale: String, title: String, body: String, used: String) throws {
        let composed = try F.compose(F.match(Self.localized), locale: locale, catalog: Self.catalog())
        #expect(composed.notification.rendered == RenderedAlert(locale: used, title: title, body: body))
        #expect(composed.problems.isEmpty)
        #expect(F.text(composed).hasPrefix(
            #"{"aps":{"alert":{"title-loc-key":"NOTE_TITLE","loc-key":"NOTE_CHANGED","loc-args":["Groceries"]},"#))
    }

    @Test("no locale: the catalog's development language")
    func noLocale() throws {
        let composed = try F.compose(F.match(Self.localized), catalog: Self.catalog())
        #expect(composed.notification.rendered == RenderedAlert(locale: "en", title: "Note", body: "“Groceries” changed"))
    }

    @Test("without a catalog: plain texts, else the keys formatted with their arguments")
    func noCatalog() throws {
        let plain = try F.compose(F.match(NotificationInfo(alertBody: "Body", title: "Title", subtitle: "Sub")), locale: "fr")
        #expect(plain.notification.rendered == RenderedAlert(locale: "fr", title: "Title", subtitle: "Sub", body: "Body"))
        let keys = try F.compose(F.match(Self.localized), locale: "fr")
        #expect(keys.notification.rendered == RenderedAlert(locale: "fr", title: "NOTE_TITLE", body: "NOTE_CHANGED"))
        let formatted = NotificationInfo(alertLocalizationKey: "%@ changed (%d)", alertLocalizationArgs: ["title", "priority"])
        #expect(try F.compose(F.match(formatted)).notification.rendered?.body == "Groceries changed (5)")
        #expect(keys.problems.isEmpty)
    }

    @Test("a key without an entry: the plain text if any, else the key; reported")
    func missingEntry() throws {
        let withPlain = NotificationInfo(alertBody: "Plain body", alertLocalizationKey: "NOPE")
        let composed = try F.compose(F.match(withPlain), locale: "fr", catalog: Self.catalog())
        #expect(composed.notification.rendered?.body == "Plain body")
        #expect(composed.problems.map(\.code) == [.missingKey])
        #expect(composed.problems.first?.location.key == "NOPE")
        let bare = try F.compose(F.match(NotificationInfo(alertLocalizationKey: "NOPE")), catalog: Self.catalog())
        #expect(bare.notification.rendered?.body == "NOPE")
    }

    @Test("a key found only in the development language: rendered.locale is the development language")
    func developmentFallback() throws {
        let composed = try F.compose(F.match(NotificationInfo(alertLocalizationKey: "EN_ONLY")), locale: "fr-CA",
                                     catalog: Self.catalog())
        #expect(composed.notification.rendered == RenderedAlert(locale: "en", body: "English only"))
    }

    @Test("rendered.locale: a regional request served by its base language, per part", arguments: [
        // title key, body key, locale requested, rendered.locale
        ("NOTE_TITLE", "NOTE_CHANGED", "fr-CA", "fr"),        // body from fr (title from fr-CA): the body's
        ("NOTE_TITLE", nil, "fr-CA", "fr-CA"),                // title only, from fr-CA
        ("NOTE_TITLE", nil, "fr-BE", "fr"),                   // fr-BE falls back to fr
        ("NOTE_TITLE", "EN_ONLY", "fr-CA", "en"),             // body from the development language
        ("NOPE", "NOPE_TOO", "fr-CA", "fr-CA"),               // nothing from the catalog: the request
    ] as [(String, String?, String, String)])
    func renderedLocalePerPart(title: String, body: String?, locale: String, used: String) throws {
        let info = NotificationInfo(alertLocalizationKey: body, titleLocalizationKey: title)
        let composed = try F.compose(F.match(info), locale: locale, catalog: Self.catalog())
        #expect(composed.notification.rendered?.locale == used)
    }

    @Test("rendered.locale names the folder used: Base.lproj as the development language, an alias folder as spelled")
    func renderedLocaleFolders() throws {
        let catalog = try LocalizationCatalog(files: [
            "Base.lproj/Localizable.strings": Data(#""BASE" = "base";"#.utf8),
            "iw.lproj/Localizable.strings": Data(#""HI" = "שלום";"#.utf8),
        ], developmentLanguage: "en")
        let base = try F.compose(F.match(NotificationInfo(alertLocalizationKey: "BASE")), locale: "de-CH", catalog: catalog)
        #expect(base.notification.rendered == RenderedAlert(locale: "en", body: "base"))
        let alias = try F.compose(F.match(NotificationInfo(alertLocalizationKey: "HI")), locale: "he-IL", catalog: catalog)
        #expect(alias.notification.rendered == RenderedAlert(locale: "iw", body: "שלום"))
    }

    @Test("specifiers at send time render safely", arguments: [
        // key, argument fields, rendered body, problem codes
        ("TWO", ["title", "priority"], "5 before Groceries", [PayloadError.Code]()),
        ("PERCENT", ["priority"], "5% done", []),
        ("MISSING_ARG", ["title"], "Groceries and ", [.formatString]),
        ("MISSING_ARG", [], " and ", [.formatString, .formatString]),
        ("BAD", ["title"], "%q oops Groceries", [.formatString]),
        ("NUMBER", ["priority", "ratio"], "priority 5, ratio 2.3", []),
        ("NUMBER", ["title", "title"], "priority Groceries, ratio Groceries", []),
        ("ITEMS", ["priority"], "5 items", []),
        ("ITEMS", ["one"], "1 item", []),
        // The plural's number is missing: `other` is chosen and the number prints as nothing.
        ("ITEMS", [], " items", [.formatString, .formatString, .formatString]),
    ])
    func specifiers(key: String, arguments: [String], body: String, problems: [PayloadError.Code]) throws {
        let change = F.change(fields: [
            "title": .string("Groceries"), "priority": .int64(5), "ratio": .double(2.26), "one": .int64(1),
        ])
        let info = NotificationInfo(alertLocalizationKey: key, alertLocalizationArgs: arguments)
        let composed = try F.compose(F.match(info, change: change), locale: "en-US", catalog: Self.catalog())
        #expect(composed.notification.rendered?.body == body)
        #expect(composed.problems.map(\.code) == problems)
        #expect(composed.problems.allSatisfy { $0.location.key == "en/\(key)" })
    }

    @Test("plural forms follow the language used", arguments: [("fr", Int64(0), "0 élément"), ("fr", 2, "2 éléments"),
                                                               ("en", 0, "0 items"), ("en", 1, "1 item")])
    func plurals(locale: String, count: Int64, body: String) throws {
        let info = NotificationInfo(alertLocalizationKey: "ITEMS", alertLocalizationArgs: ["count"])
        let change = F.change(fields: ["count": .int64(count)])
        let composed = try F.compose(F.match(info, change: change), locale: locale, catalog: Self.catalog())
        #expect(composed.notification.rendered?.body == body)
        #expect(composed.notification.alertLocalizationArgs == [String(count)])
    }

    @Test("a silent push has nothing rendered")
    func silent() throws {
        let composed = try F.compose(F.match(NotificationInfo(shouldSendContentAvailable: true)), locale: "fr",
                                     catalog: Self.catalog())
        #expect(composed.notification.rendered == nil)
    }

    // MARK: Validation at subscription time

    @Test("valid notification info has no problems")
    func validInfo() throws {
        #expect(Self.localized.payloadProblems(catalog: try Self.catalog()).isEmpty)
        #expect(Self.localized.payloadProblems().isEmpty)
        let info = NotificationInfo(alertBody: "%q is fine: plain text is not a format", desiredKeys: ["a", "b_2"],
                                    collapseIDKey: "thread")
        #expect(info.payloadProblems().isEmpty)
    }

    @Test("validation with a catalog names the key, the property and the problem", arguments: [
        ("MISSING_ARG", ["title"], PayloadError.Code.formatString, "argument 2"),
        ("BAD", ["title"], .formatString, "'%q"),
        ("NOPE", [], .missingKey, "development language"),
        ("ITEMS", [], .formatString, "argument 1"),
    ])
    func catalogProblems(key: String, arguments: [String], code: PayloadError.Code, mentions: String) throws {
        let info = NotificationInfo(titleLocalizationKey: key, titleLocalizationArgs: arguments)
        let problems = info.payloadProblems(catalog: try Self.catalog())
        #expect(!problems.isEmpty)
        #expect(problems.allSatisfy { $0.code == code && $0.location.property == "titleLocalizationKey" })
        #expect(problems.first?.description.contains(mentions) == true, "\(problems)")
    }

    @Test("validation without a catalog checks the key as its own format")
    func keyAsFormat() {
        let info = NotificationInfo(subtitleLocalizationKey: "%@ and %@", subtitleLocalizationArgs: ["a"])
        let problems = info.payloadProblems()
        #expect(problems.map(\.code) == [.formatString])
        #expect(problems.first?.location.property == "subtitleLocalizationKey")
        #expect(problems.first?.location.key == "%@ and %@")
    }

    @Test("validation refuses names that are not field names")
    func fieldNames() {
        let info = NotificationInfo(
            alertLocalizationKey: "K", alertLocalizationArgs: ["ok", "1bad"], desiredKeys: ["has space", "fine"],
            collapseIDKey: "x.y")
        let problems = info.payloadProblems()
        #expect(problems.map(\.code) == [.invalidFieldName, .invalidFieldName, .invalidFieldName])
        #expect(problems.map(\.location.property) == ["alertLocalizationArgs[1]", "desiredKeys[0]", "collapseIDKey"])
        #expect(problems[0].description == "alertLocalizationArgs[1]: '1bad' is not a field name (a letter, then letters, digits or '_', at most 255) [payload.invalidFieldName]")
    }

    @Test("the compose path renders and checks exactly as the catalog's public lookup")
    func fastPathAgrees() throws {
        let catalog = try Self.catalog()
        let keys = ["NOTE_TITLE", "NOTE_CHANGED", "TWO", "PERCENT", "MISSING_ARG", "BAD", "NUMBER", "ITEMS", "EN_ONLY"]
        let argumentLists: [[FormatArgument]] = [[], [.string("a")], [.integer(1), .double(2.5)], [.integer(2), .string("b"), .timestamp(0)]]
        for locale in ["en", "fr-CA", "fr", "ja"] {
            let chain = catalog.chainKeys(for: locale)
            #expect(chain == catalog.chainKeys(for: locale))  // cached the second time
            for key in keys {
                let found = try #require(catalog.storedEntry(forKey: key, table: "Localizable", chainKeys: chain))
                for arguments in argumentLists {
                    let fast = catalog.renderChecked(found.stored, locale: found.rulesLocale, arguments: arguments)
                    let slow = catalog.localizedString(key: key, locale: locale, arguments: arguments)
                    #expect(fast.text == slow.text, "\(key) \(arguments)")
                    #expect(fast.problems == found.stored.entry.formatProblems(argumentCount: arguments.count))
                }
            }
        }
    }
}
