import Crypto
import Foundation

extension ChangeTokenSigner {
    /// A signer whose key is written as text in configuration: hexadecimal (an even
    /// number of `0-9a-fA-F`, preferred when the text could be either) or base64
    /// (standard or URL alphabet, padding optional). Surrounding whitespace is ignored.
    ///
    /// Generate one with e.g. `openssl rand -hex 32`.
    /// - Throws: `ReaderError` (`INVALID_CONFIGURATION`) when the text is neither
    ///   encoding or decodes to fewer than 32 bytes.
    public init(keyString: String) throws(ReaderError) {
        try self.init(key: Self.keyBytes(keyString))
    }

    /// The bytes a configured key string stands for (see `init(keyString:)`).
    /// - Throws: `ReaderError` (`INVALID_CONFIGURATION`) when it is neither hex nor base64.
    public static func keyBytes(_ text: String) throws(ReaderError) -> [UInt8] {
        let text = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if let bytes = hexBytes(text) { return bytes }
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        if !text.isEmpty, let data = Data(base64Encoded: base64) { return Array(data) }
        throw ReaderError(
            .invalidConfiguration, "the change token key is neither hexadecimal nor base64",
            operation: "configure change tokens")
    }

    private static func hexBytes(_ text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard !digits.isEmpty, digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = hexValue(digits[index]), let low = hexValue(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
