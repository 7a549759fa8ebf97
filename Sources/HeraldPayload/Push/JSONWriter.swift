import HeraldModel

/// A fast, deterministic JSON writer for push payloads: measure a value with
/// ``size(of:)``, then write it into memory of that size with ``write(_:)``.
///
/// Output matches `WireCodec` byte for byte: strings escape
/// only `"`, `\` and control characters (`\b \f \n \r \t`, others as lower-case `\u00xx`),
/// pass `/` and every non-ASCII character through as UTF-8; doubles print their shortest
/// round-trip form without a trailing `.0` (`3`, `2.5`, `1e+20`); objects are written
/// with their keys sorted by UTF-8 bytes, as Foundation's `.sortedKeys` does. Callers never pass non-finite doubles (JSON has no spelling
/// for them); one that slips through is written as `null`.
struct JSONWriter {
    /// Where the next byte goes.
    private var cursor: UnsafeMutablePointer<UInt8>
    /// One past the last byte that may be written.
    private let end: UnsafeMutablePointer<UInt8>

    /// A writer into `buffer`, which must be large enough for what is written
    /// (checked: writing past the end is a programmer error and traps).
    init(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        // A zero-size buffer may have no base address; nothing can be written into it.
        let base = buffer.baseAddress ?? UnsafeMutablePointer<UInt8>(bitPattern: 1)!
        cursor = base
        end = base + buffer.count
    }

    /// How many bytes have been written from `start`.
    func written(since start: UnsafeMutablePointer<UInt8>) -> Int { cursor - start }

    // MARK: Writing

    /// Appends raw bytes (keys, punctuation, already encoded text).
    mutating func raw(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        precondition(end - cursor >= bytes.count, "JSONWriter: the buffer is smaller than what was measured")
        cursor.initialize(from: source, count: bytes.count)
        cursor += bytes.count
    }

    /// Appends ASCII text as is.
    mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { raw($0) }
    }

    /// Appends a member prefix, the quoted key and a colon (`"title":`), for a key that
    /// needs no escaping (the payload's own ASCII keys).
    mutating func memberKey(_ key: String) {
        byte(0x22)
        var key = key
        key.withUTF8 { raw($0) }
        raw("\":")
    }

    /// The bytes `memberKey(_:)` writes for `key`.
    static func memberKeySize(_ key: String) -> Int { key.utf8.count + 3 }

    @inline(__always)
    private mutating func byte(_ value: UInt8) {
        precondition(cursor < end, "JSONWriter: the buffer is smaller than what was measured")
        cursor.initialize(to: value)
        cursor += 1
    }

    /// Appends a quoted, escaped JSON string.
    mutating func string(_ text: String) {
        byte(0x22)
        var text = text
        text.withUTF8 { utf8 in
            var start = 0
            var index = Self.nextSpecial(in: utf8, from: 0)
            while index < utf8.count {
                raw(UnsafeBufferPointer(rebasing: utf8[start..<index]))
                escape(utf8[index])
                start = index + 1
                index = Self.nextSpecial(in: utf8, from: start)
            }
            raw(UnsafeBufferPointer(rebasing: utf8[start...]))
        }
        byte(0x22)
    }

    private mutating func escape(_ code: UInt8) {
        byte(0x5C)
        switch code {
        case 0x22: byte(0x22)
        case 0x5C: byte(0x5C)
        case 0x08: byte(UInt8(ascii: "b"))
        case 0x0C: byte(UInt8(ascii: "f"))
        case 0x0A: byte(UInt8(ascii: "n"))
        case 0x0D: byte(UInt8(ascii: "r"))
        case 0x09: byte(UInt8(ascii: "t"))
        default:
            let hex: StaticString = "0123456789abcdef"
            byte(UInt8(ascii: "u"))
            byte(0x30)
            byte(0x30)
            hex.withUTF8Buffer { digits in
                byte(digits[Int(code >> 4)])
                byte(digits[Int(code & 0xF)])
            }
        }
    }

    /// Appends an integer in decimal.
    mutating func integer(_ value: Int64) {
        if value < 0 { byte(UInt8(ascii: "-")) }
        let digits = Self.digitCount(value.magnitude)
        precondition(end - cursor >= digits, "JSONWriter: the buffer is smaller than what was measured")
        var magnitude = value.magnitude
        var position = cursor + digits
        repeat {
            position -= 1
            position.initialize(to: UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        cursor += digits
    }

    /// Appends a double in its shortest round-trip form, without a trailing `.0`.
    mutating func double(_ value: Double) {
        guard value.isFinite else { raw("null"); return }
        var text = Self.doubleText(value)
        text.withUTF8 { raw($0) }
    }

    /// Appends any JSON value; object keys sorted by UTF-8 bytes.
    mutating func value(_ value: JSONValue) {
        switch value {
        case .null: raw("null")
        case .bool(let flag): flag ? raw("true") : raw("false")
        case .integer(let number): integer(number)
        case .double(let number): double(number)
        case .string(let text): string(text)
        case .array(let elements):
            byte(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { byte(UInt8(ascii: ",")) }
                self.value(element)
            }
            byte(UInt8(ascii: "]"))
        case .object(let members):
            byte(UInt8(ascii: "{"))
            let keys = members.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            for (index, key) in keys.enumerated() {
                if index > 0 { byte(UInt8(ascii: ",")) }
                string(key)
                byte(UInt8(ascii: ":"))
                self.value(members[key] ?? .null)
            }
            byte(UInt8(ascii: "}"))
        }
    }

    // MARK: Measuring

    /// The number of bytes ``value(_:)`` writes for `value`.
    static func size(of value: JSONValue) -> Int {
        switch value {
        case .null: 4
        case .bool(let flag): flag ? 4 : 5
        case .integer(let number): (number < 0 ? 1 : 0) + digitCount(number.magnitude)
        case .double(let number): number.isFinite ? doubleText(number).utf8.count : 4
        case .string(let text): stringSize(text)
        case .array(let elements):
            elements.reduce(1 + max(elements.count, 1)) { $0 + size(of: $1) }
        case .object(let members):
            members.reduce(1 + max(members.count, 1)) { $0 + stringSize($1.key) + 1 + size(of: $1.value) }
        }
    }

    /// The size of `text` written by ``string(_:)``, quotes included.
    static func stringSize(_ text: String) -> Int {
        var text = text
        return text.withUTF8 { utf8 in
            var size = 2 + utf8.count
            var index = nextSpecial(in: utf8, from: 0)
            while index < utf8.count {
                size += escapedSize(utf8[index]) - 1
                index = nextSpecial(in: utf8, from: index + 1)
            }
            return size
        }
    }

    /// The index of the first byte at or after `start` that needs escaping (a control
    /// character, `"` or `\`), or `utf8.count`. Skips eight plain bytes at a time.
    @inline(__always)
    static func nextSpecial(in utf8: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var index = start
        if let base = utf8.baseAddress.map(UnsafeRawPointer.init) {
            while index + 8 <= utf8.count, !needsEscape(base.loadUnaligned(fromByteOffset: index, as: UInt64.self)) {
                index += 8
            }
        }
        while index < utf8.count {
            let code = utf8[index]
            if code < 0x20 || code == 0x22 || code == 0x5C { return index }
            index += 1
        }
        return index
    }

    /// Whether any of the eight bytes of `word` is below 0x20, `"` or `\` (SWAR: exact
    /// for "is there one", which is all that is asked).
    @inline(__always)
    static func needsEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let control = (word &- ones &* 0x20) & ~word & highs
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        return (control | ((quote &- ones) & ~quote & highs) | ((backslash &- ones) & ~backslash & highs)) != 0
    }

    /// How many bytes one UTF-8 byte of a string takes once escaped.
    @inline(__always)
    static func escapedSize(_ code: UInt8) -> Int {
        if code >= 0x20 { return code == 0x22 || code == 0x5C ? 2 : 1 }
        switch code {
        case 0x08, 0x0C, 0x0A, 0x0D, 0x09: return 2
        default: return 6
        }
    }

    /// The text ``double(_:)`` writes for a finite value.
    static func doubleText(_ value: Double) -> String {
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }

    /// The number of decimal digits of `value`.
    static func digitCount(_ value: UInt64) -> Int {
        var count = 1
        var rest = value
        while rest >= 10 {
            rest /= 10
            count += 1
        }
        return count
    }
}

extension JSONValue {
    /// The value as compact JSON bytes written by `JSONWriter` (object keys sorted).
    var jsonBytes: [UInt8] {
        let size = JSONWriter.size(of: self)
        return [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            var writer = JSONWriter(buffer)
            writer.value(self)
            count = buffer.baseAddress.map { writer.written(since: $0) } ?? 0
            precondition(count == size, "JSONWriter: measured \(size) bytes, wrote \(count)")
        }
    }
}
