import HeraldModel

/// The catalog entries of a notification's localization keys (title, subtitle, body) for
/// one locale, looked up along its fallback chain: what ``AlertRenderer`` formats. The
/// same for every notification of a subscription in that locale, so a ``PayloadTemplate``
/// keeps the last ones it looked up.
struct AlertEntries: Sendable {
    /// One entry found: the stored entry, the localization used as the bundle spells it,
    /// and its canonical form for the plural rules (see ``LocalizationCatalog/storedEntry(forKey:table:chainKeys:)``).
    typealias Found = (stored: StoredEntry, locale: String, rulesLocale: String)

    var title: Found?
    var subtitle: Found?
    var body: Found?

    /// Looks up the keys of `info` in `catalog` for `locale` (`info` borrowed: an owned
    /// parameter is a copy of the match's notification info).
    init(_ info: borrowing NotificationInfo, catalog: LocalizationCatalog, locale: String, table: String) {
        let chainKeys = catalog.chainKeys(for: locale)
        func find(_ key: String?) -> Found? {
            key.flatMap { catalog.storedEntry(forKey: $0, table: table, chainKeys: chainKeys) }
        }
        title = find(info.titleLocalizationKey)
        subtitle = find(info.subtitleLocalizationKey)
        body = find(info.alertLocalizationKey)
    }
}
