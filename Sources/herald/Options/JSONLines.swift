import Foundation

/// The non-blank lines of a JSON Lines document, with their 1-based line numbers
/// (for errors of the form `FILE:LINE: reason`).
func jsonLines(_ data: Data) -> [(number: Int, bytes: Data)] {
    data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated().compactMap { index, line in
        let blank = line.allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: "\t") }
        return blank ? nil : (index + 1, Data(line))
    }
}
