import Foundation

/// Reads Apple `.stringsdict` files: property lists (XML, or binary) mapping each key to
/// a dictionary with `NSStringLocalizedFormatKey` and one dictionary per `%#@name@`
/// variable:
///
/// ```xml
/// <key>files</key>
/// <dict>
///     <key>NSStringLocalizedFormatKey</key><string>%#@files@ in %#@folders@</string>
///     <key>files</key>
///     <dict>
///         <key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>
///         <key>NSStringFormatValueTypeKey</key><string>d</string>
///         <key>one</key><string>%d file</string>
///         <key>other</key><string>%d files</string>
///     </dict>
///     …
/// </dict>
/// ```
///
/// Rules enforced (each violation throws with the entry key and variable):
/// the root and every entry are dictionaries; `NSStringLocalizedFormatKey` is a string;
/// every variable the format key uses is defined; a variable has
/// `NSStringFormatSpecTypeKey = NSStringPluralRuleType` (other rule types are not
/// supported), a `NSStringFormatValueTypeKey` that is a valid specifier, string forms
/// only under the six CLDR category names, and an `other` form. Variables defined but
/// not used are kept (harmless). An entry holding only `NSStringVariableWidthRuleType`
/// (width variants) uses its widest variant as plain text.
public enum StringsdictFile {
    static let formatKey = "NSStringLocalizedFormatKey"
    static let specTypeKey = "NSStringFormatSpecTypeKey"
    static let valueTypeKey = "NSStringFormatValueTypeKey"
    static let pluralRuleType = "NSStringPluralRuleType"
    static let variableWidthKey = "NSStringVariableWidthRuleType"

    /// Parses a `.stringsdict` file.
    ///
    /// - Parameters:
    ///   - data: the file's bytes.
    ///   - file: the file's name or relative path, used in error locations only.
    /// - Returns: one entry per key.
    /// - Throws: ``PayloadError`` with code `stringsdict.invalid`, naming the key (as
    ///   `key`, `key/variable` or `key/variable/category`) and what is wrong.
    public static func parse(_ data: Data, file: String? = nil) throws -> [String: LocalizedEntry] {
        let root: Any
        do {
            root = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        } catch {
            throw PayloadError(.stringsdict, "not a property list: \(Self.describe(error))", at: .init(file: file))
        }
        guard let entries = root as? [String: Any] else {
            throw PayloadError(.stringsdict, "the root of a stringsdict must be a dictionary", at: .init(file: file))
        }
        var result: [String: LocalizedEntry] = [:]
        for (key, value) in entries {
            result[key] = try entry(key: key, value: value, file: file)
        }
        return result
    }

    private static func entry(key: String, value: Any, file: String?) throws -> LocalizedEntry {
        func fail(_ reason: String, _ path: String = "") -> PayloadError {
            PayloadError(.stringsdict, reason, at: .init(file: file, key: key + path))
        }
        guard let dictionary = value as? [String: Any] else {
            throw fail("an entry must be a dictionary with \(formatKey)")
        }
        guard let format = dictionary[formatKey] else {
            if let widths = dictionary[variableWidthKey] as? [String: Any] {
                let widest = widths.compactMap { width, text in
                    (text as? String).map { (Int(width) ?? 0, $0) }
                }.max { $0.0 < $1.0 }
                if let widest { return .text(widest.1) }
            }
            throw fail("missing \(formatKey)")
        }
        guard let formatText = format as? String else {
            throw fail("\(formatKey) must be a string")
        }
        var variables: [String: PluralVariable] = [:]
        for (name, definition) in dictionary where name != formatKey {
            variables[name] = try variable(name: name, definition: definition, fail: fail)
        }
        for name in FormatString(formatText).variableNames where variables[name] == nil {
            throw fail("\(formatKey) uses %#@\(name)@ but no variable '\(name)' is defined")
        }
        // Variables used only inside other variables' forms must be defined too.
        for variable in variables.values {
            for form in variable.forms.values {
                for name in FormatString(form).variableNames where variables[name] == nil {
                    throw fail("a form uses %#@\(name)@ but no variable '\(name)' is defined", "/\(variable.name)")
                }
            }
        }
        return LocalizedEntry(body: .text(formatText), variables: variables)
    }

    private static func variable(
        name: String, definition: Any, fail: (String, String) -> PayloadError
    ) throws -> PluralVariable {
        let path = "/" + name
        guard let dictionary = definition as? [String: Any] else {
            throw fail("variable '\(name)' must be a dictionary", path)
        }
        guard let specType = dictionary[specTypeKey] as? String else {
            throw fail("variable '\(name)' has no \(specTypeKey) string", path)
        }
        guard specType == pluralRuleType else {
            throw fail("variable '\(name)' has \(specTypeKey) '\(specType)'; only \(pluralRuleType) is supported", path)
        }
        guard let valueType = dictionary[valueTypeKey] as? String else {
            throw fail("variable '\(name)' has no \(valueTypeKey) string (e.g. d, ld, lld, f, @)", path)
        }
        guard isValidValueType(valueType) else {
            throw fail("variable '\(name)' has \(valueTypeKey) '\(valueType)', which is not a format specifier", path)
        }
        var forms: [PluralCategory: String] = [:]
        for (key, value) in dictionary where key != specTypeKey && key != valueTypeKey {
            guard let category = PluralCategory(rawValue: key) else {
                if key.hasPrefix("NSString") { continue }
                throw fail("variable '\(name)' has unknown plural category '\(key)' (zero, one, two, few, many, other)", path)
            }
            guard let text = value as? String else {
                throw fail("form '\(key)' of variable '\(name)' must be a string", path + "/" + key)
            }
            forms[category] = text
        }
        guard forms[.other] != nil else {
            throw fail("variable '\(name)' has no 'other' form (it is required)", path)
        }
        return PluralVariable(name: name, valueType: valueType, forms: forms)
    }

    /// Whether `valueType` (without `%`) is one complete, valid, non-variable specifier.
    static func isValidValueType(_ valueType: String) -> Bool {
        let parsed = FormatString("%" + valueType)
        guard parsed.problems.isEmpty, parsed.segments.count == 1,
              case .specifier(let specifier) = parsed.segments[0] else { return false }
        if case .pluralVariable = specifier.conversion { return false }
        return specifier.position == nil
    }

    static func describe(_ error: any Error) -> String {
        let nsError = error as NSError
        if let debug = nsError.userInfo["NSDebugDescription"] as? String { return debug }
        return nsError.localizedDescription
    }
}
