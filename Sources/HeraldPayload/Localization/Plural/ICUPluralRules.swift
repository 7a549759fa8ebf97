import CICU
import Synchronization

/// One locale's cardinal plural rules in ICU (`UPluralRules`), with the number formatters
/// that give ICU a number's visible fraction digits (`v`): ICU reads the operands of a
/// *formatted* number, so `1.0` formatted with one fraction digit is `other` in English
/// while `1` is `one`.
///
/// Thread-safe: ICU's `UPluralRules` and `UNumberFormatter` are immutable once opened and
/// documented safe to use from several threads; each call formats into its own result.
/// A class so that the ICU objects are closed once, when the last copy of the
/// ``PluralRules`` holding it goes away.
final class ICUPluralRules: @unchecked Sendable {
    /// The ICU locale identifier the rules were opened for (`pt_PT`, `root`).
    let locale: String
    /// The categories the locale distinguishes, in CLDR order.
    let categories: [PluralCategory]
    private let rules: OpaquePointer
    /// Formatters by number of visible fraction digits, opened on first use.
    private let formatters = Mutex<[Int: OpaquePointer]>([:])
    /// The categories of ``probes`` (computed on first use, for equality).
    private let signatureMemo = Mutex<[PluralCategory]?>(nil)

    /// Opens the rules of an ICU locale identifier; `nil` when ICU reports an error.
    init?(locale: String) {
        var status: Int32 = 0
        guard let rules = herald_plural_rules_open(locale, &status), status <= 0 else {
            return nil
        }
        self.locale = locale
        self.rules = rules
        var found: Set<PluralCategory> = []
        if let keywords = herald_plural_keywords(rules, &status), status <= 0 {
            var length: Int32 = 0
            while let keyword = herald_enumeration_next(keywords, &length, &status) {
                if let category = PluralCategory(rawValue: String(cString: keyword)) { found.insert(category) }
            }
            herald_enumeration_close(keywords)
        }
        found.insert(.other)
        categories = found.sorted()
    }

    deinit {
        herald_plural_rules_close(rules)
        formatters.withLock { formatters in
            for formatter in formatters.values { herald_number_formatter_close(formatter) }
        }
    }

    /// The category of a number; `other` if ICU fails (it does not for valid operands).
    func category(for x: PluralOperands) -> PluralCategory {
        var keyword = [UInt16](repeating: 0, count: 8)
        var status: Int32 = 0
        let length: Int32
        if x.v == 0 && x.i < 1 << 53 {
            // A whole number with no fraction digits shown: ICU's double entry is exact here.
            length = herald_plural_select(rules, Double(x.i), &keyword, Int32(keyword.count), &status)
        } else {
            guard let formatter = formatter(fractionDigits: x.v),
                  let result = herald_formatted_number_open(&status) else { return .other }
            defer { herald_formatted_number_close(result) }
            let fraction = String(x.f)
            let text = x.v == 0 ? "\(x.i)" : "\(x.i)." + String(repeating: "0", count: x.v - fraction.count) + fraction
            herald_format_decimal(formatter, text, Int32(text.utf8.count), result, &status)
            guard status <= 0 else { return .other }
            length = herald_plural_select_formatted(rules, result, &keyword, Int32(keyword.count), &status)
        }
        guard status <= 0, length > 0, length <= keyword.count else { return .other }
        let name = String(decoding: keyword.prefix(Int(length)), as: UTF16.self)
        return PluralCategory(rawValue: name) ?? .other
    }

    /// A formatter showing exactly `digits` fraction digits (skeleton `.00` for 2).
    private func formatter(fractionDigits digits: Int) -> OpaquePointer? {
        formatters.withLock { formatters in
            if let formatter = formatters[digits] { return formatter }
            let skeleton = Array((digits == 0 ? "precision-integer" : "." + String(repeating: "0", count: digits)).utf16)
            var status: Int32 = 0
            guard let formatter = herald_number_formatter_open(skeleton, Int32(skeleton.count), locale, &status),
                  status <= 0 else { return nil }
            formatters[digits] = formatter
            return formatter
        }
    }

    /// Numbers on which every pair of CLDR rule sets differs somewhere: integers 0–210
    /// and the millions (the Romance `many`), and decimals with one and two digits.
    private static let probes: [PluralOperands] = {
        var numbers = (0...210).map { "\($0)" } + ["1000", "10000", "100000", "1000000", "2000000", "1000001"]
        numbers += (0...40).map { "\($0 / 10).\($0 % 10)" } + ["10.0", "11.0", "100.0", "21.1", "1000000.0"]
        numbers += (0...30).map { "0.\($0 < 10 ? "0" : "")\($0)" } + ["1.00", "1.01", "2.00", "1.000"]
        return numbers.compactMap { PluralOperands(decimal: $0) }
    }()

    /// The categories of the probe numbers: equal for two locales sharing a rule set.
    var signature: [PluralCategory] {
        signatureMemo.withLock { memo in
            if let memo { return memo }
            let computed = Self.probes.map(category(for:))
            memo = computed
            return computed
        }
    }
}
