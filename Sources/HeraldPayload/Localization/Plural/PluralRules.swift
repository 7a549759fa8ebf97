/// CLDR cardinal plural rules for one language.
///
/// The rules follow **CLDR 46** (`plurals.xml`); for the languages below they have not
/// changed since CLDR 42, when Hebrew lost its `many` category and gained `one` for
/// `0.x`. The compact-exponent operands `c`/`e` are always 0 here (Herald never formats
/// compact numbers), so the Romance `many` applies to exact multiples of a million.
///
/// | rule set | languages | categories |
/// |---|---|---|
/// | one: `i = 1 and v = 0` | en de nl sv fi et gl fy ia io ji lij sc sw ur yi ast | one other |
/// | one: `n = 1` | tr el hu nb nn no bg | one other |
/// | French | fr | one (`i = 0,1`), many, other |
/// | Spanish | es | one (`n = 1`), many, other |
/// | Italian / European Portuguese | it ca pt-PT (and pt-AO, -CH, -CV, -GQ, -GW, -LU, -MO, -MZ, -ST, -TL) | one (`i = 1 and v = 0`), many, other |
/// | Portuguese | pt, pt-BR | one (`i = 0..1`), many, other |
/// | East Slavic | ru uk | one, few, many, other |
/// | Polish | pl | one, few, many, other |
/// | Czech / Slovak | cs sk | one, few, many (`v != 0`), other |
/// | Arabic | ar | zero, one, two, few, many, other |
/// | Hebrew | he iw | one, two, other |
/// | none | ja zh ko th vi id ms yue lo km my | other |
///
/// A language that is not listed uses only `other` (it has no known rules, and `other`
/// is the one form every stringsdict and catalog entry must have). Only the language
/// subtag matters, except for Portuguese where the region selects pt-PT rules.
public struct PluralRules: Sendable, Hashable {
    /// The rule set chosen for the language.
    enum RuleSet: Sendable, Hashable {
        case oneIfIntegerOne, oneIfNIsOne, french, spanish, italian, portuguese
        case eastSlavic, polish, czech, arabic, hebrew, otherOnly
    }

    let ruleSet: RuleSet

    /// The rules for a BCP 47 or Apple locale identifier (`fr`, `fr-CA`, `pt_PT`,
    /// `zh-Hans-CN`); case-insensitive; unknown languages get `other`-only rules.
    public init(localeIdentifier: String) {
        let subtags = localeIdentifier.lowercased()
            .split(whereSeparator: { $0 == "-" || $0 == "_" })
            .map(String.init)
        let language = subtags.first ?? ""
        switch language {
        case "en", "de", "nl", "sv", "fi", "et", "gl", "fy", "ia", "io", "ji", "lij", "sc", "sw", "ur", "yi", "ast":
            ruleSet = .oneIfIntegerOne
        case "tr", "el", "hu", "nb", "nn", "no", "bg":
            ruleSet = .oneIfNIsOne
        case "fr": ruleSet = .french
        case "es": ruleSet = .spanish
        case "it", "ca": ruleSet = .italian
        case "pt":
            let europeanRegions: Set<String> = ["pt", "ao", "ch", "cv", "gq", "gw", "lu", "mo", "mz", "st", "tl"]
            ruleSet = subtags.dropFirst().contains(where: europeanRegions.contains) ? .italian : .portuguese
        case "ru", "uk": ruleSet = .eastSlavic
        case "pl": ruleSet = .polish
        case "cs", "sk": ruleSet = .czech
        case "ar": ruleSet = .arabic
        case "he", "iw": ruleSet = .hebrew
        default: ruleSet = .otherOnly
        }
    }

    /// The categories this language distinguishes, in CLDR order (always ending in `other`).
    public var categories: [PluralCategory] {
        switch ruleSet {
        case .oneIfIntegerOne, .oneIfNIsOne: [.one, .other]
        case .french, .spanish, .italian, .portuguese: [.one, .many, .other]
        case .eastSlavic, .polish, .czech: [.one, .few, .many, .other]
        case .arabic: [.zero, .one, .two, .few, .many, .other]
        case .hebrew: [.one, .two, .other]
        case .otherOnly: [.other]
        }
    }

    /// The CLDR category of a number.
    public func category(for x: PluralOperands) -> PluralCategory {
        // e = 0 and i != 0 and i % 1000000 = 0 and v = 0 (c/e are always 0 here)
        let exactMillions = x.i != 0 && x.i % 1_000_000 == 0 && x.v == 0
        switch ruleSet {
        case .oneIfIntegerOne:
            return x.i == 1 && x.v == 0 ? .one : .other
        case .oneIfNIsOne:
            return x.nIs(1) ? .one : .other
        case .french:
            if x.i == 0 || x.i == 1 { return .one }
            return exactMillions ? .many : .other
        case .spanish:
            if x.nIs(1) { return .one }
            return exactMillions ? .many : .other
        case .italian:
            if x.i == 1 && x.v == 0 { return .one }
            return exactMillions ? .many : .other
        case .portuguese:
            if x.i <= 1 { return .one }
            return exactMillions ? .many : .other
        case .eastSlavic:
            guard x.v == 0 else { return .other }
            let (mod10, mod100) = (x.i % 10, x.i % 100)
            if mod10 == 1 && mod100 != 11 { return .one }
            if (2...4).contains(mod10) && !(12...14).contains(mod100) { return .few }
            return .many
        case .polish:
            guard x.v == 0 else { return .other }
            let (mod10, mod100) = (x.i % 10, x.i % 100)
            if x.i == 1 { return .one }
            if (2...4).contains(mod10) && !(12...14).contains(mod100) { return .few }
            return .many
        case .czech:
            if x.v != 0 { return .many }
            if x.i == 1 { return .one }
            if (2...4).contains(x.i) { return .few }
            return .other
        case .arabic:
            if x.nIs(0) { return .zero }
            if x.nIs(1) { return .one }
            if x.nIs(2) { return .two }
            if x.nModulo(100, in: 3...10) { return .few }
            if x.nModulo(100, in: 11...99) { return .many }
            return .other
        case .hebrew:
            if (x.i == 1 && x.v == 0) || (x.i == 0 && x.v != 0) { return .one }
            if x.i == 2 && x.v == 0 { return .two }
            return .other
        case .otherOnly:
            return .other
        }
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
