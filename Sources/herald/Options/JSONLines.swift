import Foundation

/// The non-blank lines of a JSON Lines document, with their 1-based line numbers
/// (for errors of the form `FILE:LINE: reason`).
func jsonLines(_ data: Data) -> [(number: Int, bytes: Data)] {
    data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated().compactMap { index, line in
        let blank = line.allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: "\t") }
        return blank ? nil : (index + 1, Data(line))
    }
}

/// When `data` is one JSON document written over several lines (a pretty-printed object
/// or an array) rather than JSON Lines, the sentence that says so; else `nil`.
/// - Parameter holding: what each line should hold ("subscription").
func jsonLinesHint(_ data: Data, file: String, holding: String) -> String? {
    let lines = jsonLines(data)
    guard lines.count > 1, (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) != nil else {
        return nil
    }
    let first = lines.first.map { String(decoding: $0.bytes, as: UTF8.self).trimmingCharacters(in: .whitespaces) } ?? ""
    let kind = first.hasPrefix("[") ? "one JSON array" : "one JSON document"
    return """
        \(file) is JSON Lines: one \(holding) per line; it holds \(kind) over \(lines.count) lines \
        (write each \(holding) on a single line, e.g. `jq -c '\(first.hasPrefix("[") ? ".[]" : ".")' \(file)`)
        """
}
