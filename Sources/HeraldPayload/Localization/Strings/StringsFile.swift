import Foundation
import HeraldModel

/// Reads Apple `.strings` files (docs/cloudkit-behaviour.md §9): `"key" = "value";` pairs, comments, quoted
/// or unquoted tokens, escapes, UTF-8 or UTF-16 text.
///
/// The rules, as CoreFoundation's old-style property-list reader applies them:
/// - entries `key = value;` or `key;` (the value is then the key); a later entry for the
///   same key replaces an earlier one (last wins);
/// - keys and values are `"…"` or `'…'` strings, or unquoted tokens of
///   `A–Z a–z 0–9 _ $ / : . -`;
/// - `/* … */` and `// …` comments anywhere between tokens;
/// - escapes `\n \t \r \" \' \\ \a \b \f \v`, `\Uxxxx` (exactly four hex digits;
///   surrogate pairs combine, a lone surrogate is an error), `\o`, `\oo`, `\ooo` octal; any
///   other escaped character stands for itself (`\q` → `q`; lower-case `\u` is not an
///   escape, as in CoreFoundation);
/// - text is UTF-8 (BOM optional) or UTF-16 LE/BE with a BOM; BOM-less UTF-16 is
///   recognised by its NUL bytes;
/// - a file that is a binary or XML property list (what Xcode puts in built bundles) is
///   read as a dictionary of strings.
///
/// Errors carry the line and column where the problem is: the opening quote of an
/// unterminated string, the `/*` of an unterminated comment, the backslash of a bad
/// escape, and for a missing `;`, `=` or value the position just after the previous token.
public enum StringsFile {
    /// Parses a `.strings` file into its key → value table.
    ///
    /// - Parameters:
    ///   - data: the file's bytes.
    ///   - file: the file's name or relative path, used in error locations only.
    /// - Returns: every entry; for a key given twice, the last value.
    /// - Throws: ``PayloadError`` with code `strings.encoding`, `strings.syntax` or
    ///   `strings.escape`, whose location names the line and column.
    public static func parse(_ data: Data, file: String? = nil) throws -> [String: String] {
        if isPropertyList(data) { return try parsePropertyList(data, file: file) }
        let scalars = try StringsTextDecoder(file: file).decode(data)
        var parser = StringsParser(scalars, file: file)
        return try parser.parse()
    }

    /// Whether the bytes are a binary or XML property list: Xcode compiles `.strings`
    /// files into binary property lists inside built app bundles.
    static func isPropertyList(_ data: Data) -> Bool {
        if data.starts(with: Array("bplist".utf8)) { return true }
        var bytes = data.prefix(64)[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        let head = String(decoding: bytes, as: UTF8.self).drop { $0.isWhitespace }
        return head.hasPrefix("<?xml") || head.hasPrefix("<!DOCTYPE plist") || head.hasPrefix("<plist")
    }

    /// Reads a property-list `.strings` file: a dictionary of strings.
    static func parsePropertyList(_ data: Data, file: String?) throws -> [String: String] {
        let root: Any
        do {
            root = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        } catch {
            throw PayloadError(.stringsSyntax, "not a valid property list: \(StringsdictFile.describe(error))",
                               at: .init(file: file))
        }
        guard let dictionary = root as? [String: Any] else {
            throw PayloadError(.stringsSyntax, "a property-list .strings file must hold a dictionary", at: .init(file: file))
        }
        var table: [String: String] = [:]
        for (key, value) in dictionary {
            guard let text = value as? String else {
                throw PayloadError(.stringsSyntax, "the value of a property-list .strings entry must be a string",
                                   at: .init(file: file, key: key))
            }
            table[key] = text
        }
        return table
    }

    /// What `herald strings parse FILE` prints: the table as a JSON object, keys sorted by
    /// code point, two-space indented, `/` not escaped, followed by no newline.
    ///
    /// - Throws: the same errors as ``parse(_:file:)``.
    public static func jsonText(_ data: Data, file: String? = nil) throws -> String {
        let table = try parse(data, file: file)
        return jsonObjectText(table)
    }

    /// Renders a flat string table as deterministic JSON (sorted keys, pretty printed).
    static func jsonObjectText(_ table: [String: String]) -> String {
        guard !table.isEmpty else { return "{}" }
        let keys = table.keys.sorted { $0.unicodeScalars.lexicographicallyPrecedes($1.unicodeScalars) }
        var out = "{\n"
        for (offset, key) in keys.enumerated() {
            out += "  " + jsonString(key) + ": " + jsonString(table[key] ?? "")
            out += offset == keys.count - 1 ? "\n" : ",\n"
        }
        return out + "}"
    }

    /// `text` as a JSON string, escaped as Herald's wire JSON is (`HeraldModel.JSONWriter`).
    static func jsonString(_ text: String) -> String {
        var writer = HeraldModel.JSONWriter(capacity: text.utf8.count + 2)
        writer.string(text)
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}
