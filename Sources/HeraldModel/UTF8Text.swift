/// Strings from UTF-8 bytes on the per-message paths.
enum UTF8Text {
    /// The bytes as a string, or `nil` when they are not valid UTF-8. All-ASCII text (most
    /// of Herald's IDs and names) is built by `String(decoding:as:)`, which the compiler
    /// specializes; only other text goes through `String(validating:as:)`, which instantiates
    /// its generic metadata on every call (about a fifth of decoding a match in a profile).
    static func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        var any: UInt8 = 0
        for byte in bytes { any |= byte }
        if any < 0x80 { return String(decoding: bytes, as: UTF8.self) }
        return String(validating: bytes, as: UTF8.self)
    }
}
