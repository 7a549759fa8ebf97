import Foundation
@testable import HeraldPayload

/// Builders for stringsdict and String Catalog test documents.
enum Fixtures {
    /// An XML property list whose root dictionary holds `body`.
    static func plist(_ body: String) -> Data {
        Data("""
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        \(body)
        </dict>
        </plist>
        """.utf8)
    }

    /// One stringsdict entry: `<key>key</key><dict>format + variables</dict>`.
    static func entry(_ key: String, format: String, _ variables: String...) -> String {
        "<key>\(key)</key><dict><key>NSStringLocalizedFormatKey</key><string>\(format)</string>\(variables.joined())</dict>"
    }

    /// One plural variable dictionary.
    static func variable(_ name: String, type: String = "d", _ forms: KeyValuePairs<String, String>) -> String {
        var text = "<key>\(name)</key><dict>"
        text += "<key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>"
        text += "<key>NSStringFormatValueTypeKey</key><string>\(type)</string>"
        for (category, form) in forms { text += "<key>\(category)</key><string>\(form)</string>" }
        return text + "</dict>"
    }

    /// A String Catalog stringUnit object.
    static func unit(_ value: String) -> [String: Any] {
        ["stringUnit": ["state": "translated", "value": value]]
    }

    /// A plural variation object.
    static func plural(_ forms: KeyValuePairs<String, String>) -> [String: Any] {
        var object: [String: Any] = [:]
        for (category, form) in forms { object[category] = unit(form) }
        return ["plural": object]
    }

    /// A String Catalog document.
    static func catalog(source: String = "en", _ strings: [String: Any]) -> Data {
        let root: [String: Any] = ["sourceLanguage": source, "strings": strings, "version": "1.0"]
        return (try? JSONSerialization.data(withJSONObject: root, options: [.sortedKeys])) ?? Data()
    }
}
