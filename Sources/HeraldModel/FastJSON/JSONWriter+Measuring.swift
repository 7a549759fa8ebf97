extension JSONWriter {
    /// The number of bytes ``value(_:)`` writes for `value` (a non-finite double, which
    /// `value(_:)` refuses, counts as `null`).
    public static func size(of value: JSONValue) -> Int {
        switch value {
        case .null: 4
        case .bool(let flag): flag ? 4 : 5
        case .integer(let number): integerSize(number)
        case .double(let number): number.isFinite ? doubleText(number).utf8.count : 4
        case .string(let text): stringSize(text)
        case .array(let elements):
            elements.reduce(1 + max(elements.count, 1)) { $0 + size(of: $1) }
        case .object(let members):
            members.reduce(1 + max(members.count, 1)) { $0 + stringSize($1.key) + 1 + size(of: $1.value) }
        }
    }

    /// The size of `text` written by ``string(_:)``, quotes included.
    public static func stringSize(_ text: String) -> Int {
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

    /// The size of `value` written by ``integer(_:)``.
    public static func integerSize(_ value: Int64) -> Int {
        (value < 0 ? 1 : 0) + digitCount(value.magnitude)
    }

    /// The index of the first byte at or after `start` that needs escaping (a control
    /// character, `"` or `\`), or `utf8.count`. Skips eight plain bytes at a time.
    @inline(__always)
    public static func nextSpecial(in utf8: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
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
    public static func escapedSize(_ code: UInt8) -> Int {
        if code >= 0x20 { return code == 0x22 || code == 0x5C ? 2 : 1 }
        switch code {
        case 0x08, 0x0C, 0x0A, 0x0D, 0x09: return 2
        default: return 6
        }
    }

    /// The text ``double(_:)`` writes for a finite value.
    public static func doubleText(_ value: Double) -> String {
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
