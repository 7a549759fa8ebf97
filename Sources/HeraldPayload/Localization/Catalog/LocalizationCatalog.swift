import Foundation

/// All the localized strings of one app, built from files already read into memory, and
/// the lookup that turns a key, a locale and arguments into text.
///
/// Input paths are relative to the localizations root:
/// - `fr.lproj/Localizable.strings`, `fr.lproj/Localizable.stringsdict` — one language,
///   table `Localizable`; the folder name is the language (`Base.lproj` is the development
///   language's base; legacy `English.lproj` etc. are understood);
/// - `Localizable.xcstrings` — every language of table `Localizable`;
/// - `Localizable.strings` outside any `.lproj` — a last resort used for every language;
/// - other files are ignored. Only the last `.lproj` component of a path counts.
///
/// **Precedence** when one key of one table has entries from several files in the same
/// language: `.stringsdict` over `.xcstrings` over `.strings` (the most specific format
/// wins, as Foundation prefers a stringsdict entry over a strings one). Files of one kind
/// are read in path order; a later duplicate key replaces an earlier one.
///
/// **Fallback** for a requested locale (see ``fallbackChain(for:)``): the locale and its
/// truncations (`fr-CA` → `fr-CA`, `fr`), then other regional variants of the same
/// language and script in name order (`pt-BR` finds `pt-PT` before giving up on
/// Portuguese; `zh-Hant` never finds `zh-Hans`), then the development language (and its
/// truncations), then `Base`, then the files outside any `.lproj`. The key is looked up
/// in each in turn; the first localization that has it wins, so a key missing from `fr`
/// falls back to the development language while the rest of `fr` is still used.
///
/// The value is immutable and `Sendable`: build it once, share it across tasks.
public struct LocalizationCatalog: Sendable {
    /// The language the app was developed in (`CFBundleDevelopmentRegion`), e.g. `en`.
    public let developmentLanguage: String

    /// One language's tables.
    struct Localization: Sendable {
        /// The name as the bundle spells it (`fr`, `zh-Hans`, `Base`, `""` for the root).
        var name: String
        /// table → key → entry and its source.
        var tables: [String: [String: StoredEntry]] = [:]
    }

    /// Localizations by normalised name (`base` for Base.lproj, `""` for the root).
    private let localizationsByKey: [String: Localization]
    /// The non-empty localization keys, sorted (the sibling search of a fallback chain).
    private let sortedKeys: [String]
    /// Every format string of every entry, parsed once (rendering is then parse-free).
    private let formats: ParsedFormats
    /// Fallback chains already computed, by requested locale (shared by copies).
    private let chains = ChainCache()

    /// The localizations present, as the bundle spells them, sorted (`""` is the root).
    public var localizations: [String] { localizationsByKey.values.map(\.name).sorted() }

    /// Builds a catalog from file contents.
    ///
    /// - Parameters:
    ///   - files: file contents keyed by path relative to the localizations root.
    ///   - developmentLanguage: the development language (`en`), used as the last
    ///     language in every fallback chain and for `Base.lproj`'s plural rules.
    /// - Throws: the first ``PayloadError`` met while parsing a file (its location names
    ///   the file path), or `localization.bundle` for an `.lproj` folder with an empty name.
    public init(files: [String: Data], developmentLanguage: String) throws {
        self.developmentLanguage = developmentLanguage
        var localizations: [String: Localization] = [:]

        func add(_ entries: [String: LocalizedEntry], language: String, table: String,
                 source: LocalizedText.Source) {
            let key = language == "" ? "" : LocaleFallback.normalize(language)
            // A catalog language that names nothing (`""`, `@x`) must not merge into the root.
            guard language == "" || !key.isEmpty else { return }
            var localization = localizations[key] ?? Localization(name: LocaleFallback.legacyCode(language) ?? language)
            for (entryKey, entry) in entries {
                localization.tables[table, default: [:]][entryKey] = StoredEntry(entry: entry, source: source)
            }
            localizations[key] = localization
        }

        // Lowest precedence first: later additions replace earlier ones.
        let kinds: [(suffix: String, source: LocalizedText.Source)] = [
            (".strings", .strings), (".xcstrings", .stringCatalog), (".stringsdict", .stringsdict),
        ]
        for kind in kinds {
            for path in files.keys.sorted() where path.hasSuffix(kind.suffix) {
                let data = files[path] ?? Data()
                let components = path.split(separator: "/").map(String.init)
                guard let fileName = components.last, fileName.count > kind.suffix.count else { continue }
                let table = String(fileName.dropLast(kind.suffix.count))
                let folder = components.dropLast().last { $0.lowercased().hasSuffix(".lproj") }
                var language = ""
                if let folder {
                    language = String(folder.dropLast(".lproj".count))
                    guard !LocaleFallback.normalize(language).isEmpty else {
                        throw PayloadError(.bundle, "an .lproj folder needs a language name", at: .init(file: path))
                    }
                }
                switch kind.source {
                case .strings:
                    let entries = try StringsFile.parse(data, file: path).mapValues(LocalizedEntry.text)
                    add(entries, language: language, table: table, source: .strings)
                case .stringsdict:
                    add(try StringsdictFile.parse(data, file: path), language: language, table: table, source: .stringsdict)
                case .stringCatalog:
                    let catalog = try StringCatalog(parsing: data, file: path)
                    for (catalogLanguage, entries) in catalog.entries.sorted(by: { $0.key < $1.key }) {
                        add(entries, language: catalogLanguage, table: table, source: .stringCatalog)
                    }
                }
            }
        }
        localizationsByKey = localizations
        sortedKeys = localizations.keys.filter { !$0.isEmpty }.sorted()
        var formats: ParsedFormats = ParsedFormats()
        for localization in localizations.values {
            for table in localization.tables.values {
                for found in table.values {
                    for text in found.entry.formatTexts { formats.add(text) }
                }
            }
        }
        self.formats = formats
    }

    /// The localizations to search for `locale`, most preferred first, as the bundle
    /// spells them (`Base` for Base.lproj, `""` for files outside any `.lproj`). Only
    /// localizations present in the catalog are listed, each once.
    public func fallbackChain(for locale: String) -> [String] {
        chainKeys(for: locale).compactMap { localizationsByKey[$0]?.name }
    }

    /// The normalised localization keys to search for `locale`, in order: compute once
    /// and pass to ``entry(forKey:table:chainKeys:)`` to look up several keys.
    func chainKeys(for locale: String) -> [String] {
        if let cached = chains.chain(for: locale) { return cached }
        let keys = computeChainKeys(for: locale)
        chains.store(keys, for: locale)
        return keys
    }

    private func computeChainKeys(for locale: String) -> [String] {
        var keys: [String] = []
        func append(_ key: String) {
            if localizationsByKey[key] != nil, !keys.contains(key) { keys.append(key) }
        }
        let requested = LocaleFallback.candidates(for: locale)
        requested.forEach(append)
        if let language = requested.last {
            let script = requested.first.flatMap(LocaleFallback.script(of:))
            for key in sortedKeys where LocaleFallback.language(of: key) == language {
                let siblingScript = LocaleFallback.script(of: key)
                if script == nil || siblingScript == nil || siblingScript == script { append(key) }
            }
        }
        LocaleFallback.candidates(for: developmentLanguage).forEach(append)
        append("base")
        append("")
        return keys
    }

    /// The entry for `key`, following the fallback chain of `locale`.
    ///
    /// - Returns: the entry, the kind of file it came from, and the locale used (as
    ///   ``LocalizedText/locale`` describes), or `nil` when no localization has the key.
    public func entry(
        forKey key: String, table: String = "Localizable", locale: String
    ) -> (entry: LocalizedEntry, source: LocalizedText.Source, locale: String)? {
        storedEntry(forKey: key, table: table, chainKeys: chainKeys(for: locale))
            .map { ($0.stored.entry, $0.stored.source, $0.locale) }
    }

    /// ``entry(forKey:table:locale:)`` along a chain from ``chainKeys(for:)``, with the
    /// entry's pre-parsed format.
    func storedEntry(
        forKey key: String, table: String, chainKeys: [String]
    ) -> (stored: StoredEntry, locale: String)? {
        for localizationKey in chainKeys {
            guard let localization = localizationsByKey[localizationKey],
                  let found = localization.tables[table]?[key] else { continue }
            let used = localizationKey == "base" || localizationKey == "" ? developmentLanguage : localization.name
            return (found, used)
        }
        return nil
    }

    /// What is wrong with `key` for a subscription that will pass `argumentCount`
    /// arguments (docs/cloudkit-behaviour.md §4: `*LocalizationArgs` are checked when the subscription is
    /// saved): the key missing from the development language (code
    /// `localization.missingKey`), and every format problem of every localization's entry
    /// (see ``LocalizedEntry/formatProblems(argumentCount:)``), whose location names the
    /// localization and key as `fr/KEY`. An empty result means the key is fine.
    public func problems(forKey key: String, table: String = "Localizable", argumentCount: Int) -> [PayloadError] {
        var problems: [PayloadError] = []
        let developmentKeys = LocaleFallback.candidates(for: developmentLanguage) + ["base", ""]
        let inDevelopment = developmentKeys.contains { localizationsByKey[$0]?.tables[table]?[key] != nil }
        if !inDevelopment {
            problems.append(PayloadError(
                .missingKey, "no entry in table '\(table)' for the development language '\(developmentLanguage)'",
                at: .init(key: key)))
        }
        for localizationKey in localizationsByKey.keys.sorted() {
            guard let localization = localizationsByKey[localizationKey],
                  let found = localization.tables[table]?[key] else { continue }
            let name = localization.name.isEmpty ? developmentLanguage : localization.name
            for problem in found.entry.formatProblems(argumentCount: argumentCount, formats: formats) {
                var located = problem
                located.location.key = name + "/" + key
                problems.append(located)
            }
        }
        return problems
    }

    /// Looks up `key` for `locale` and formats it with `arguments`. Never fails.
    ///
    /// Picks the entry with ``entry(forKey:table:locale:)`` (stringsdict plural, catalog
    /// plural or plain string), then renders it with
    /// ``LocalizedEntry/render(_:rules:missingArgument:)`` using the plural rules of the
    /// locale actually used. A key found nowhere gives the key itself, formatted with the
    /// arguments, and a `nil` ``LocalizedText/locale``.
    ///
    /// - Parameters:
    ///   - key: the localization key (`alertLocalizationKey`, …).
    ///   - table: the table name (the file name without extension); `Localizable` by default.
    ///   - locale: the recipient's locale (`fr-CA`, `zh_Hant_TW`, `pt-BR`; any case).
    ///   - arguments: the values of the localization arguments, argument 1 first.
    ///   - missingArgument: printed for a specifier without an argument (empty by default).
    public func localizedString(
        key: String, table: String = "Localizable", locale: String,
        arguments: [FormatArgument] = [], missingArgument: String = ""
    ) -> LocalizedText {
        guard let found = entry(forKey: key, table: table, locale: locale) else {
            let text = FormatString(key).render(arguments, missingArgument: missingArgument)
            return LocalizedText(text: text, key: key, locale: nil, source: nil)
        }
        let rules = PluralRules(localeIdentifier: found.locale)
        let rendered = found.entry.render(arguments, rules: rules, missingArgument: missingArgument, formats: formats)
        return LocalizedText(text: rendered.text, key: key, locale: found.locale, source: found.source,
                             pluralCategories: rendered.categories)
    }
}

extension LocalizationCatalog {
    /// Renders an entry of this catalog in the language `locale` with its pre-parsed
    /// formats, and lists its format problems for `arguments.count` arguments — the
    /// same text as ``LocalizedEntry/render(_:rules:missingArgument:)`` and the same
    /// problems as ``LocalizedEntry/formatProblems(argumentCount:)``, faster: a plain
    /// entry (no plural variables) is rendered and checked from one parsed format.
    func renderChecked(
        _ stored: StoredEntry, locale: String, arguments: [FormatArgument]
    ) -> (text: String, problems: [PayloadError]) {
        if let format = stored.plainFormat {
            var highest = 0
            for case .specifier(let specifier) in format.segments {
                highest = max(highest, specifier.argumentIndex() + 1)
            }
            let problems = format.problems.isEmpty && highest <= arguments.count
                ? [] : stored.entry.formatProblems(argumentCount: arguments.count, formats: formats)
            // A `%#@name@` without a variable prints its argument, as the entry renderer does.
            return (format.render(arguments) { $0.argument?.text ?? "" }, problems)
        }
        let rules = PluralRules(localeIdentifier: locale)
        return (stored.entry.render(arguments, rules: rules, missingArgument: "", formats: formats).text,
                stored.entry.formatProblems(argumentCount: arguments.count, formats: formats))
    }
}
