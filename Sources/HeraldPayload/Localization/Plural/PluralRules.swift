/// CLDR cardinal plural rules for one locale — every CLDR locale, through ICU.
///
/// The rules come from Debian's ICU (`libicu-dev` 72: every locale of CLDR 42's `plurals.xml`, over 200)
/// through the `CICU` system library, not from rules generated into Swift: the project
/// depends on well-kept libraries for data that changes with each CLDR release, ICU *is*
/// CLDR's reference implementation of the rule syntax (operands n, i, v, w, f, t, e, c), and
/// a distribution update brings new CLDR data without a code change here. The samples of
/// the CLDR data are checked by `PluralRulesSampleTests`.
///
/// Visible fraction digits count (`v`): `1` is `one` in English, `1.0` is `other`; the
/// operands are handed to ICU as a number formatted with exactly `v` fraction digits. The
/// compact-exponent operands `c`/`e` are always 0 here (Herald never formats compact
/// numbers), so the Romance `many` applies to exact multiples of a million.
///
/// Locale identifiers are BCP 47 or Apple style (`fr`, `fr-CA`, `pt_PT`, `zh-Hans-CN`, any
/// case); ICU falls back from the region to the language (`pt-PT` has its own rules, `fr-CA`
/// uses `fr`'s), legacy codes are understood (`iw`, `ji`, `in`, `no`), and an unknown or
/// malformed identifier gets CLDR's root rules: `other` only (the one form every
/// stringsdict and catalog entry must have).
///
/// Opening the rules costs ICU's data lookup; ``PluralRulesCache`` keeps them per locale.
/// Two values are equal when their locales share a rule set.
public struct PluralRules: Sendable, Hashable {
    /// ICU's rules, or `nil` when ICU could not open even root's (`other` only).
    let icu: ICUPluralRules?

    /// The rules for a BCP 47 or Apple locale identifier (`fr`, `fr-CA`, `pt_PT`,
    /// `zh-Hans-CN`); case-insensitive; unknown languages get `other`-only rules.
    public init(localeIdentifier: String) {
        icu = ICUPluralRules(locale: Self.icuLocale(localeIdentifier)) ?? ICUPluralRules(locale: "root")
    }

    /// ICU's spelling of a locale identifier: subtags joined by `_`; `root` for an empty
    /// or malformed one (only letters and digits in subtags, at most 64 characters, so no
    /// ICU keywords such as `@numbers=…` come in from user data).
    static func icuLocale(_ identifier: String) -> String {
        let subtags = identifier.split(whereSeparator: { $0 == "-" || $0 == "_" })
        guard identifier.count <= 64, let language = subtags.first, language.count <= 8,
              subtags.allSatisfy({ $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }) else {
            return "root"
        }
        // CLDR's parentLocales make these Portuguese locales inherit pt-PT's rules; ICU's
        // plural lookup only truncates (pt-AO -> pt), so name pt-PT for them.
        if language.lowercased() == "pt", subtags.dropFirst().contains(where: { europeanPortuguese.contains($0.lowercased()) }) {
            return "pt_PT"
        }
        return subtags.joined(separator: "_")
    }

    /// The regions whose Portuguese has `pt_PT` as CLDR parent locale (and pt-PT itself).
    private static let europeanPortuguese: Set<String> = ["pt", "ao", "ch", "cv", "gq", "gw", "lu", "mo", "mz", "st", "tl"]

    /// The categories this language distinguishes, in CLDR order (always ending in `other`).
    public var categories: [PluralCategory] { icu?.categories ?? [.other] }

    /// The CLDR category of a number.
    public func category(for x: PluralOperands) -> PluralCategory {
        icu?.category(for: x) ?? .other
    }

    public static func == (lhs: PluralRules, rhs: PluralRules) -> Bool {
        lhs.icu === rhs.icu || lhs.icu?.signature == rhs.icu?.signature
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(icu?.signature)
    }

    /// Picks the form to use among those a translator wrote, the way Apple's stringsdict
    /// lookup does:
    /// 1. a `zero` form, when present, is used for the number 0 (`n = 0`) in **every**
    ///    language, even those whose CLDR rules have no `zero` category (Apple documents
    ///    `zero` this way for stringsdict, and Xcode offers it in String Catalogs);
    /// 2. otherwise the CLDR category's form;
    /// 3. otherwise (a form the translator left out) the `other` form.
    ///
    /// - Parameters:
    ///   - operands: the number, or `nil` when there is none (NaN, infinity, a non-numeric
    ///     argument), which selects `other`.
    ///   - forms: the forms available; `other` should be among them.
    /// - Returns: the category whose form was chosen and the form, or `nil` when neither
    ///   the chosen category nor `other` has a form.
    public func selectForm<Form>(
        for operands: PluralOperands?, in forms: [PluralCategory: Form]
    ) -> (category: PluralCategory, form: Form)? {
        guard let operands else { return forms[.other].map { (.other, $0) } }
        if operands.nIs(0), let zero = forms[.zero] { return (.zero, zero) }
        let category = category(for: operands)
        if let form = forms[category] { return (category, form) }
        return forms[.other].map { (.other, $0) }
    }
}
