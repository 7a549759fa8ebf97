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
/// **Spellings**: folder names and `.xcstrings` language keys are canonicalized like
/// requests (``LocaleFallback/canonical(_:)``): `iw.lproj` serves `he`, `iw` and `he-IL`;
/// `zh_CN.lproj` serves `zh-Hans-CN` and `zh-Hans`; `pt_BR` is `pt-BR`. Two spellings of
/// one language (`he.lproj` and `iw.lproj`) form one localization: for a key both have
/// in files of the same kind, the spelling closest to BCP 47 wins — the current code
/// over an alias (`he` over `iw`), a script-bearing form over `zh_CN`, then name order
/// (`pt-BR` before `pt_BR`) — so the result never depends on file order (a legacy name
/// counts as its code: `English.lproj` is `en`, path order decides); the other
/// spelling still supplies the keys the winner lacks. ``spellingNotes`` lists each such
/// merge.
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
        /// The name as the bundle spells it (`fr`, `zh-Hans`, `Base`, `""` for the root);
        /// of several spellings, the preferred one.
        var name: String
        /// Every spelling met (`he`, `iw`), as reported.
        var spellings: Set<String> = []
        /// table → key → entry and its source.
        var tables: [String: [String: StoredEntry]] = [:]
    }

    /// Localizations by canonical name (`base` for Base.lproj, `""` for the root).
    private let localizationsByKey: [String: Localization]
    /// The non-empty localization keys, sorted (the sibling search of a fallback chain).
    private let sortedKeys: [String]
    /// Every format string of every entry, parsed once (rendering is then parse-free).
    private let formats: ParsedFormats
    /// Fallback chains already computed, by requested locale (shared by copies).
    /// Fallback chains by requested locale: few distinct locales, and computing a chain
    /// costs more than rendering a short string.
    private let chains = BoundedMemo<String, [String]>(capacity: 512)
    /// ICU's plural rules by locale, opened on first use.
    private let pluralRules = PluralRulesCache()
    /// One object per catalog built, shared by its copies: what a memo of lookups in this
    /// catalog keeps to know it is the same catalog (a strong reference, so the address
    /// cannot be reused by another catalog while the memo holds it).
    let identity = Identity()

    /// The identity of one catalog (see ``identity``).
    final class Identity: Sendable {}

    /// The localizations present, as the bundle spells them, sorted (`""` is the root).
    public var localizations: [String] { localizationsByKey.values.map(\.name).sorted() }

    /// One line per language spelled in several ways (`he.lproj` and `iw.lproj`), saying
    /// which spelling wins; sorted. Empty when every language has one spelling.
    public var spellingNotes: [String] {
        localizationsByKey.filter { $0.value.spellings.count > 1 }.map { key, localization in
            let others = localization.spellings.subtracting([localization.name]).sorted()
                .map { "'\($0)'" }.joined(separator: ", ")
            return "'\(localization.name)' and \(others) are one localization (\(key)): "
                + "'\(localization.name)' wins for a key both spell in files of one kind, the others fill in keys it lacks"
        }.sorted()
    }

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
            let key = language == "" ? "" : LocaleFallback.canonical(language)
            // A catalog language that names nothing (`""`, `@x`) must not merge into the root.
            guard language == "" || !key.isEmpty else { return }
            let spelling = LocaleFallback.legacyCode(language) ?? language
            var localization = localizations[key] ?? Localization(name: spelling)
            localization.spellings.insert(spelling)
            if LocaleFallback.prefers(spelling, over: localization.name, key: key) { localization.name = spelling }
            for (entryKey, entry) in entries {
                // Kinds come in precedence order, so a new kind replaces; within one kind
                // the preferred spelling keeps its entry whatever the file order.
                if let existing = localization.tables[table]?[entryKey], existing.source == source,
                   LocaleFallback.prefers(existing.localization, over: spelling, key: key) { continue }
                localization.tables[table, default: [:]][entryKey] = StoredEntry(
                    entry: entry, source: source, localization: spelling)
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
        if let cached = chains[locale] { return cached }
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
    /// - Returns: the entry, the kind of file it came from, and the localization used
    ///   (as ``LocalizedText/locale`` describes), or `nil` when no localization has the key.
    public func entry(
        forKey key: String, table: String = "Localizable", locale: String
    ) -> (entry: LocalizedEntry, source: LocalizedText.Source, locale: String)? {
        storedEntry(forKey: key, table: table, chainKeys: chainKeys(for: locale))
            .map { ($0.stored.entry, $0.stored.source, $0.locale) }
    }

    /// ``entry(forKey:table:locale:)`` along a chain from ``chainKeys(for:)``, with the
    /// entry's pre-parsed format. `locale` is the localization used as the bundle spells
    /// it; `rulesLocale` its canonical form for ``PluralRules`` (`he` for `iw.lproj`).
    func storedEntry(
        forKey key: String, table: String, chainKeys: [String]
    ) -> (stored: StoredEntry, locale: String, rulesLocale: String)? {
        for localizationKey in chainKeys {
            guard let localization = localizationsByKey[localizationKey],
                  let found = localization.tables[table]?[key] else { continue }
            if localizationKey == "base" || localizationKey == "" {
                return (found, developmentLanguage, developmentLanguage)
            }
            return (found, found.localization, localizationKey)
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
        guard let found = storedEntry(forKey: key, table: table, chainKeys: chainKeys(for: locale)) else {
            let text = FormatString(key).render(arguments, missingArgument: missingArgument)
            return LocalizedText(text: text, key: key, locale: nil, source: nil)
        }
        let rules = pluralRules.rules(for: found.rulesLocale)
        let rendered = found.stored.entry.render(
            arguments, rules: rules, missingArgument: missingArgument, formats: formats)
        return LocalizedText(text: rendered.text, key: key, locale: found.locale, source: found.stored.source,
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
            let problems = format.problems.isEmpty && stored.plainArgumentCount <= arguments.count
                ? [] : stored.entry.formatProblems(argumentCount: arguments.count, formats: formats)
            // A `%#@name@` without a variable prints its argument, as the entry renderer does.
            return (format.render(arguments) { $0.argument?.text ?? "" }, problems)
        }
        let rules = pluralRules.rules(for: locale)
        return (stored.entry.render(arguments, rules: rules, missingArgument: "", formats: formats).text,
                stored.entry.formatProblems(argumentCount: arguments.count, formats: formats))
    }
}
