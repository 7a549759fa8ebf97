import NIOHPACK

/// The HTTP/2 rules for field names and values (RFC 9113 §8.2.1), checked on each request
/// before it is written. The connections run NIOHTTP2 with its own header-block validation
/// off: that check walks every byte through generic closures on both the request and the
/// answer (~2 % of the push stage's CPU, `herald bench push` under perf), and it reported an
/// invalid request header as a stream error on a write whose promise `ProviderStreamHandler`
/// does not hold, so the request went unanswered until its deadline. Here a request with a
/// bad value (a collapse ID or notification ID with a line break, read from a topic) fails
/// at once, naming the header, and an answer's headers are read only for the few names the
/// clients look at.
enum HeaderBlockCheck {
    /// Why `headers` may not be sent, or nil: names lower-case visible ASCII (a leading `:`
    /// only for the pseudo-headers, which come first), values without NUL, CR or LF and
    /// without leading or trailing space or tab.
    static func problem(in headers: HPACKHeaders) -> String? {
        var regularSeen = false
        for (name, value, _) in headers {
            let isPseudo = name.utf8.first == UInt8(ascii: ":")
            if isPseudo, regularSeen { return "pseudo-header \(name) after a regular header" }
            if !isPseudo { regularSeen = true }
            guard isValid(name: name, pseudo: isPseudo) else { return "invalid header name \(name.debugDescription)" }
            guard isValid(value: value) else { return "invalid value of header \(name): \(value.debugDescription)" }
        }
        return nil
    }

    private static func isValid(name: String, pseudo: Bool) -> Bool {
        var utf8 = name.utf8[...]
        if pseudo { utf8 = utf8.dropFirst() }
        guard !utf8.isEmpty else { return false }
        for byte in utf8 {
            // RFC 9110's token characters, letters in lower case only.
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"),
                UInt8(ascii: "!"), UInt8(ascii: "#")...UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"),
                UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"),
                UInt8(ascii: "~"):
                continue
            default:
                return false
            }
        }
        return true
    }

    private static func isValid(value: String) -> Bool {
        let utf8 = value.utf8
        if let first = utf8.first, first == 0x20 || first == 0x09 { return false }
        if let last = utf8.last, last == 0x20 || last == 0x09 { return false }
        for byte in utf8 where byte == 0 || byte == 0x0A || byte == 0x0D { return false }
        return true
    }
}
