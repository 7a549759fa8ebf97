import HeraldReader
import Hummingbird

/// A fast reading of the common `POST notifications/changes` body — a flat object of
/// `serverChangeToken` (a plain ASCII string or `null`), `resultsLimit` (a plain integer or
/// `null`) and `includeRead` (`true`, `false` or `null`), or an empty body — without
/// Foundation's `JSONDecoder`, which took most of a fetch's own time (issue 13).
///
/// Hand-written rather than a JSON library: it only has to recognise this one shape and
/// say "not recognised" for everything else. Anything else — another key, a repeated key,
/// an escape, a number with a fraction or exponent, more than 18 digits, malformed JSON —
/// gives `nil`, and the caller decodes with `WireCodec` as before, so every error (and its
/// message naming the JSON path) comes from the same decoder as always. For what it does
/// recognise it gives exactly what `WireCodec` decodes.
struct FetchChangesBody {
    /// The body (a few dozen bytes: copying it is cheaper than the decoder by far).
    private let bytes: [UInt8]
    private var index = 0

    private init(_ buffer: ByteBuffer) {
        bytes = Array(buffer.readableBytesView)
    }

    /// The request `buffer` holds, or `nil` when it is not the simple shape (decode it
    /// with `WireCodec` then). An empty or all-whitespace body is `{}`.
    static func parse(_ buffer: ByteBuffer) -> FetchChangesRequest? {
        var reader = FetchChangesBody(buffer)
        return reader.request()
    }

    private mutating func request() -> FetchChangesRequest? {
        var request = FetchChangesRequest()
        skipWhitespace()
        guard index < bytes.endIndex else { return request }
        guard take(UInt8(ascii: "{")) else { return nil }
        skipWhitespace()
        var seen: [String] = []
        if !take(UInt8(ascii: "}")) {
            repeat {
                skipWhitespace()
                guard let key = plainString(), !seen.contains(key) else { return nil }
                seen.append(key)
                skipWhitespace()
                guard take(UInt8(ascii: ":")) else { return nil }
                skipWhitespace()
                guard member(key, into: &request) else { return nil }
                skipWhitespace()
            } while take(UInt8(ascii: ","))
            guard take(UInt8(ascii: "}")) else { return nil }
        }
        skipWhitespace()
        return index == bytes.endIndex ? request : nil
    }

    /// Reads the value of `key` into `request`; `false` when the key or its value's form
    /// is not one this reader handles.
    private mutating func member(_ key: String, into request: inout FetchChangesRequest) -> Bool {
        if literal("null") {
            return ["serverChangeToken", "resultsLimit", "includeRead"].contains(key)
        }
        switch key {
        case "serverChangeToken":
            guard let token = plainString() else { return false }
            request.serverChangeToken = ChangeToken(rawValue: token)
        case "resultsLimit":
            guard let limit = plainInteger() else { return false }
            request.resultsLimit = limit
        case "includeRead":
            if literal("true") {
                request.includeRead = true
            } else if literal("false") {
                request.includeRead = false
            } else {
                return false
            }
        default:
            return false
        }
        return true
    }

    /// A string of printable ASCII without escapes, or `nil`.
    private mutating func plainString() -> String? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        let start = index
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let text = String(decoding: bytes[start..<index], as: UTF8.self)
                index += 1
                return text
            }
            guard byte >= 0x20, byte < 0x7F, byte != UInt8(ascii: "\\") else { return nil }
            index += 1
        }
        return nil
    }

    /// An integer of at most 18 digits (so it fits `Int`), without fraction or exponent,
    /// as JSON writes it (no leading zeros), or `nil`.
    private mutating func plainInteger() -> Int? {
        let negative = take(UInt8(ascii: "-"))
        var value = 0
        var digits = 0
        var leadingZero = false
        while index < bytes.endIndex, let digit = Self.digit(bytes[index]) {
            if digits == 0 { leadingZero = digit == 0 }
            // Past 18 digits the number is declined below: stop adding before it can overflow.
            if digits < 18 { value = value * 10 + digit }
            digits += 1
            index += 1
        }
        guard (1...18).contains(digits), !(leadingZero && digits > 1) else { return nil }
        // What follows must end the number: a fraction or exponent goes to the decoder.
        if index < bytes.endIndex, bytes[index] == UInt8(ascii: ".") || bytes[index] | 0x20 == UInt8(ascii: "e") {
            return nil
        }
        return negative ? -value : value
    }

    private static func digit(_ byte: UInt8) -> Int? {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) ? Int(byte - UInt8(ascii: "0")) : nil
    }

    private mutating func literal(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard bytes.endIndex - index >= count else { return false }
        let end = index + count
        let matches = word.withUTF8Buffer { expected in bytes[index..<end].elementsEqual(expected) }
        // `truex` is not `true`: the literal must end there.
        guard matches, end == bytes.endIndex || !Self.isLetter(bytes[end]) else { return false }
        index = end
        return true
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x20, 0x09, 0x0A, 0x0D: true
        default: false
        }
    }

    private mutating func take(_ byte: UInt8) -> Bool {
        guard index < bytes.endIndex, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    private mutating func skipWhitespace() {
        while index < bytes.endIndex, Self.isWhitespace(bytes[index]) {
            index += 1
        }
    }
}
