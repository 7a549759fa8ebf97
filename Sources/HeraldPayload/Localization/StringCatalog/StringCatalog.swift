import Foundation

/// A String Catalog (`.xcstrings`): Xcode's JSON file holding every language of one table.
///
/// ```json
/// {"sourceLanguage": "en", "version": "1.0",
///  "strings": {"FILES": {"localizations": {
///     "en": {"variations": {"plural": {"one": {"stringUnit": {"state": "translated", "value": "%lld file"}},
///                                      "other": {"stringUnit": {"state": "translated", "value": "%lld files"}}}}},
///     "fr": {"stringUnit": {"state": "translated", "value": "%#@n@"},
///            "substitutions": {"n": {"argNum": 1, "formatSpecifier": "lld",
///                "variations": {"plural": {"one": {"stringUnit": {"value": "%arg fichier"}},
///                                          "other": {"stringUnit": {"value": "%arg fichiers"}}}}}}}}}}}
/// ```
///
/// Decisions:
/// - a key with no localization in the source language uses the key itself as its
///   source-language value (what Xcode compiles); a key missing in another language is
///   simply absent there and falls back like any missing key;
/// - a string unit is used whatever its `state` (`translated`, `needs_review`, `new`,
///   `stale`); only its `value` matters;
/// - a top-level plural variation selects its form with the first numeric specifier of
///   its `other` form (argument 1 if it has none); each form is a complete format string;
/// - in a substitution's forms, `%arg` stands for the substituted number and becomes
///   `%<argNum>$<formatSpecifier>` (or `%<formatSpecifier>` without `argNum`);
/// - `device` variations use the `other` device (else the first device by name);
///   any other variation kind is an error.
public struct StringCatalog: Sendable, Hashable {
    /// The language the strings were written in (`sourceLanguage`).
    public var sourceLanguage: String
    /// The catalog format version, if given.
    public var version: String?
    /// Entries per language code as written in the catalog (`en`, `fr`, `zh-Hans`), then per key.
    public var entries: [String: [String: LocalizedEntry]]

    /// Parses a String Catalog.
    ///
    /// - Parameters:
    ///   - data: the file's bytes (UTF-8 JSON).
    ///   - file: the file's name or relative path, used in error locations only.
    /// - Throws: ``PayloadError`` with code `xcstrings.invalid`, naming the key path
    ///   (`KEY/fr/variations/plural/one`) and what is wrong.
    public init(parsing data: Data, file: String? = nil) throws {
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: data, options: [])
        } catch {
            throw PayloadError(.stringCatalog, "not JSON: \(StringsdictFile.describe(error))", at: .init(file: file))
        }
        func fail(_ reason: String, _ key: String? = nil) -> PayloadError {
            PayloadError(.stringCatalog, reason, at: .init(file: file, key: key))
        }
        guard let object = root as? [String: Any] else { throw fail("the root must be a JSON object") }
        guard let source = object["sourceLanguage"] as? String, !source.isEmpty else {
            throw fail("missing sourceLanguage (a language code string)")
        }
        guard let strings = object["strings"] as? [String: Any] else {
            throw fail("missing strings (an object of keys)")
        }
        sourceLanguage = source
        version = object["version"] as? String
        var entries: [String: [String: LocalizedEntry]] = [:]
        for (key, value) in strings {
            guard let string = value as? [String: Any] else { throw fail("a string must be an object", key) }
            var localizations: [String: Any] = [:]
            if let given = string["localizations"] {
                guard let given = given as? [String: Any] else {
                    throw fail("localizations must be an object", key)
                }
                localizations = given
            }
            for (language, localization) in localizations {
                let path = key + "/" + language
                guard let localization = localization as? [String: Any] else {
                    throw fail("a localization must be an object", path)
                }
                entries[language, default: [:]][key] = try Self.entry(localization, path: path, fail: fail)
            }
            if localizations[source] == nil {
                entries[source, default: [:]][key] = .text(key)
            }
        }
        self.entries = entries
    }

    private static func entry(
        _ localization: [String: Any], path: String, fail: (String, String?) -> PayloadError
    ) throws -> LocalizedEntry {
        var variables: [String: PluralVariable] = [:]
        if let given = localization["substitutions"] {
            guard let substitutions = given as? [String: Any] else {
                throw fail("substitutions must be an object", path + "/substitutions")
            }
            for (name, substitution) in substitutions {
                variables[name] = try variable(name: name, substitution, path: path + "/substitutions/" + name, fail: fail)
            }
        }
        let body = try body(localization, path: path, fail: fail)
        var texts: [String] = []
        switch body {
        case .text(let text): texts = [text]
        case .plural(let variable): texts = Array(variable.forms.values)
        }
        texts += variables.values.flatMap { $0.forms.values }
        for text in texts {
            for name in FormatString(text).variableNames where variables[name] == nil {
                throw fail("uses %#@\(name)@ but there is no substitution '\(name)'", path)
            }
        }
        return LocalizedEntry(body: body, variables: variables)
    }

    /// The main text: a string unit, or a plural (possibly under a device variation).
    private static func body(
        _ localization: [String: Any], path: String, fail: (String, String?) -> PayloadError
    ) throws -> LocalizedEntry.Body {
        if let unit = localization["stringUnit"] {
            return .text(try value(ofStringUnit: unit, path: path + "/stringUnit", fail: fail))
        }
        guard let given = localization["variations"] else {
            throw fail("a localization needs a stringUnit or variations", path)
        }
        guard let variations = given as? [String: Any] else {
            throw fail("variations must be an object", path + "/variations")
        }
        if let plural = variations["plural"] {
            let forms = try forms(plural, path: path + "/variations/plural", argument: nil, fail: fail)
            let other = FormatString(forms[.other] ?? "")
            let selector = other.specifiers.first { $0.conversion.isNumeric }
            let valueType = selector.map { specifier in
                (specifier.precision.map { ".\($0)" } ?? "") + specifier.length + specifier.conversion.spelling
            } ?? "d"
            let argument = (selector?.argumentIndex() ?? 0) + 1
            return .plural(PluralVariable(name: "plural", valueType: valueType, argumentNumber: argument, forms: forms))
        }
        if let device = variations["device"] {
            guard let devices = device as? [String: Any], !devices.isEmpty else {
                throw fail("device variations must be a non-empty object", path + "/variations/device")
            }
            let name = devices["other"] != nil ? "other" : devices.keys.sorted()[0]
            guard let chosen = devices[name] as? [String: Any] else {
                throw fail("a device variation must be an object", path + "/variations/device/" + name)
            }
            return try body(chosen, path: path + "/variations/device/" + name, fail: fail)
        }
        let kinds = variations.keys.sorted().joined(separator: ", ")
        throw fail("unsupported variations '\(kinds)' (plural and device are supported)", path + "/variations")
    }

    private static func variable(
        name: String, _ substitution: Any, path: String, fail: (String, String?) -> PayloadError
    ) throws -> PluralVariable {
        guard let object = substitution as? [String: Any] else { throw fail("a substitution must be an object", path) }
        var argumentNumber: Int?
        if let given = object["argNum"] {
            guard let number = given as? Int, number >= 1 else {
                throw fail("argNum must be an integer from 1", path + "/argNum")
            }
            argumentNumber = number
        }
        let specifier = (object["formatSpecifier"] as? String) ?? "lld"
        guard StringsdictFile.isValidValueType(specifier) else {
            throw fail("formatSpecifier '\(specifier)' is not a format specifier", path + "/formatSpecifier")
        }
        guard let variations = object["variations"] as? [String: Any], let plural = variations["plural"] else {
            throw fail("a substitution needs variations.plural", path)
        }
        let argument = "%" + (argumentNumber.map { "\($0)$" } ?? "") + specifier
        let forms = try forms(plural, path: path + "/variations/plural", argument: argument, fail: fail)
        return PluralVariable(name: name, valueType: specifier, argumentNumber: argumentNumber, forms: forms)
    }

    /// The forms of a plural variation; `argument` replaces `%arg` in substitutions.
    private static func forms(
        _ plural: Any, path: String, argument: String?, fail: (String, String?) -> PayloadError
    ) throws -> [PluralCategory: String] {
        guard let object = plural as? [String: Any] else { throw fail("a plural variation must be an object", path) }
        var forms: [PluralCategory: String] = [:]
        for (name, variant) in object {
            guard let category = PluralCategory(rawValue: name) else {
                throw fail("unknown plural category '\(name)' (zero, one, two, few, many, other)", path + "/" + name)
            }
            guard let variant = variant as? [String: Any], let unit = variant["stringUnit"] else {
                throw fail("plural form '\(name)' needs a stringUnit", path + "/" + name)
            }
            var text = try value(ofStringUnit: unit, path: path + "/" + name + "/stringUnit", fail: fail)
            if let argument { text = text.replacingOccurrences(of: "%arg", with: argument) }
            forms[category] = text
        }
        guard forms[.other] != nil else { throw fail("a plural variation needs an 'other' form", path) }
        return forms
    }

    private static func value(
        ofStringUnit unit: Any, path: String, fail: (String, String?) -> PayloadError
    ) throws -> String {
        guard let object = unit as? [String: Any] else { throw fail("a stringUnit must be an object", path) }
        guard let value = object["value"] as? String else { throw fail("a stringUnit needs a string value", path) }
        return value
    }
}
