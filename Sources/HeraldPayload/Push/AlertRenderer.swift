import HeraldModel

/// Renders a notification's title, subtitle and body in the recipient's locale
/// (server-side localization, beyond CloudKit, which leaves it to the device).
///
/// For each part:
/// - with a localization key found in the catalog (following the locale's fallback
///   chain, ``LocalizationCatalog/entry(forKey:table:locale:)``): the entry formatted
///   with the arguments and the plural rules of the language used;
/// - with a key that has no entry (or no catalog): the plain text of the same part when
///   the subscription has one (`alertBody`, `title`, `subtitle`), else the key itself
///   formatted with the arguments — what a device shows for an unknown key;
/// - without a key: the plain text, as is (plain texts are not format strings).
///
/// Rendering never fails: a specifier without an argument prints nothing, a bad
/// specifier prints as written. A key missing from a catalog and format problems of the
/// entry used are reported (so a bad translation shows up in the compose stage's log).
///
/// `rendered.locale` is the localization actually used, as the bundle spells it (what
/// `Bundle.preferredLocalizations` names): the body's, else the title's, else the
/// subtitle's, for the first of them rendered from a catalog entry (`Base.lproj` and
/// files outside any `.lproj` count as the development language). When no part came
/// from the catalog (plain texts, keys without an entry, no catalog) it is the locale
/// the text was composed for: the requested one.
struct AlertRenderer {
    let locale: String
    let table: String
    /// The entries of the parts' keys in the catalog for `locale` (`nil` without a catalog).
    let entries: AlertEntries?

    /// The rendered alert, or `nil` when the notification shows no text.
    /// - Parameter catalog: the catalog the entries come from (passed, not kept: no copy of
    ///   it per notification).
    func render(
        _ info: NotificationInfo, _ values: PayloadValues, catalog: LocalizationCatalog?, problems: inout [PayloadError]
    ) -> RenderedAlert? {
        let title = part(
            info.titleLocalizationKey, entries?.title, values.title.values, plain: info.title, catalog, &problems)
        let subtitle = part(
            info.subtitleLocalizationKey, entries?.subtitle, values.subtitle.values, plain: info.subtitle, catalog,
            &problems)
        let body = part(
            info.alertLocalizationKey, entries?.body, values.alert.values, plain: info.alertBody, catalog, &problems)
        guard title.text != nil || subtitle.text != nil || body.text != nil else { return nil }
        let used = body.localization ?? title.localization ?? subtitle.localization ?? locale
        return RenderedAlert(locale: used, title: title.text, subtitle: subtitle.text, body: body.text)
    }

    /// One part's text, and the localization it came from when a catalog entry was used.
    private func part(
        _ key: String?, _ found: AlertEntries.Found?, _ arguments: [FormatArgument], plain: String?,
        _ catalog: LocalizationCatalog?, _ problems: inout [PayloadError]
    ) -> (text: String?, localization: String?) {
        guard let key else { return (plain, nil) }
        // Optional chaining rather than `if let catalog`: no copy of the catalog per part.
        if let found, let rendered = catalog?.renderChecked(found.stored, locale: found.rulesLocale, arguments: arguments) {
            for problem in rendered.problems {
                var located = problem
                located.location.key = found.locale + "/" + key
                problems.append(located)
            }
            return (rendered.text, found.locale)
        }
        if catalog != nil {
            problems.append(PayloadError(
                .missingKey, "no entry in table '\(table)' for locale '\(locale)' or its fallbacks", at: .init(key: key)))
        }
        if let plain { return (plain, nil) }
        // Most keys are identifiers without a '%': nothing to format.
        return (key.utf8.contains(UInt8(ascii: "%")) ? FormatString(key).render(arguments) : key, nil)
    }
}
