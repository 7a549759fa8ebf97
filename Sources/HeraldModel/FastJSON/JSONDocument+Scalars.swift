import Foundation

extension JSONDocument {
    /// The root node's index.
    public static let root = 0

    /// What a node is.
    public func kind(_ node: Int) -> Kind { nodes[node].kind }

    /// What Foundation says it found, for "expected … but found …" reasons.
    func foundDescription(_ node: Int) -> String {
        switch nodes[node].kind {
        case .null: "null"
        case .true, .false: "bool"
        case .number: "number"
        case .string: "a string"
        case .array: "an array"
        case .object: "a dictionary"
        }
    }

    /// The text of a string node, with escapes resolved; `nil` when Foundation would not
    /// read it (a raw control character, invalid UTF-8, an unknown escape, a lone surrogate).
    func text(_ node: Int) -> String? {
        let item = nodes[node]
        let start = Int(item.start)
        let end = Int(item.end)
        return bytes.withUnsafeBufferPointer { buffer -> String? in
            let slice = UnsafeBufferPointer(rebasing: buffer[start..<end])
            if !item.escaped {
                for byte in slice where byte < 0x20 { return nil }
                return UTF8Text.string(slice)
            }
            return Self.unescape(slice)
        }
    }

    private static func unescape(_ slice: UnsafeBufferPointer<UInt8>) -> String? {
        var out: [UInt8] = []
        out.reserveCapacity(slice.count)
        var index = 0
        func hex4(_ at: Int) -> UInt32? {
            guard at + 4 <= slice.count else { return nil }
            var value: UInt32 = 0
            for offset in 0..<4 {
                guard let digit = hexValue(slice[at + offset]) else { return nil }
                value = value << 4 | digit
            }
            return value
        }
        while index < slice.count {
            let byte = slice[index]
            if byte < 0x20 { return nil }
            guard byte == UInt8(ascii: "\\") else {
                out.append(byte)
                index += 1
                continue
            }
            guard index + 1 < slice.count else { return nil }
            let escape = slice[index + 1]
            index += 2
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(escape)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                guard let unit = hex4(index) else { return nil }
                index += 4
                var scalarValue = unit
                if (0xD800..<0xDC00).contains(unit) {
                    guard index + 6 <= slice.count, slice[index] == UInt8(ascii: "\\"), slice[index + 1] == UInt8(ascii: "u"),
                        let low = hex4(index + 2), (0xDC00..<0xE000).contains(low)
                    else { return nil }
                    index += 6
                    scalarValue = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00..<0xE000).contains(unit) {
                    return nil
                }
                guard let scalar = Unicode.Scalar(scalarValue) else { return nil }
                out.append(contentsOf: String(Character(scalar)).utf8)
            default:
                return nil
            }
        }
        return String(validating: out, as: UTF8.self)
    }

    /// Whether `text(node)` would succeed, checked without building the string when the
    /// text is plain printable ASCII.
    func isReadableText(_ node: Int) -> Bool {
        let item = nodes[node]
        if !item.escaped, !bytes[Int(item.start)..<Int(item.end)].contains(where: { $0 < 0x20 || $0 >= 0x80 }) { return true }
        return text(node) != nil
    }

    /// Whether a string node's raw text equals `key` (a plain ASCII name).
    func textEquals(_ node: Int, _ key: StaticString) -> Bool {
        let item = nodes[node]
        if item.escaped { return text(node).map { $0 == key.description } ?? false }
        let count = Int(item.end - item.start)
        guard count == key.utf8CodeUnitCount else { return false }
        let start = Int(item.start)
        let keyBytes = key.utf8Start
        for offset in 0..<count where bytes[start + offset] != keyBytes[offset] { return false }
        return true
    }

    /// A number node read as Foundation reads it into `JSONValue`: `.integer` when it is
    /// an Int64 exactly (also `2.0`, `1e2`), else `.double`; `nil` when the text is not a
    /// JSON number or its value is beyond a double's range.
    func numberValue(_ node: Int) -> JSONValue? {
        let item = nodes[node]
        let start = Int(item.start)
        let end = Int(item.end)
        guard Self.isValidNumber(bytes, start, end) else { return nil }
        // Fast path: an optional minus and at most 18 digits always fit in Int64.
        var index = start
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        if end - index <= 18 {
            var value: Int64 = 0
            var plain = true
            for position in index..<end {
                let digit = bytes[position] &- UInt8(ascii: "0")
                guard digit < 10 else { plain = false; break }
                value = value * 10 + Int64(digit)
            }
            if plain { return .integer(negative ? -value : value) }
        }
        // `JSONValue` first asks Foundation for an Int64, then for a double.
        if let exact = foundationInteger(start, end) { return .integer(exact) }
        guard let value = doubleValue(node) else { return nil }
        return Int64(exactly: value).map(JSONValue.integer) ?? .double(value)
    }

    /// What Foundation's `decode(Int64.self)` reads from a valid number text: a plain integer
    /// exactly; any other text only when its double is a whole number in range, and then
    /// that double below 2^53 (`7971750798030819.74` reads as `7971750798030820`) and the
    /// decimal value of the text with its fraction cut off above (`64240052067958362.7` reads
    /// as `64240052067958362`); `1.5` not at all.
    private func foundationInteger(_ start: Int, _ end: Int) -> Int64? {
        let text = bytes[start..<end]
        if !text.contains(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }) {
            return Int64(String(decoding: text, as: UTF8.self))
        }
        guard let double = Double(String(decoding: text, as: UTF8.self)), double.isFinite, let whole = Int64(exactly: double) else {
            return nil
        }
        // Below 2^53 Foundation takes the double's value; above, the text's digits.
        if double.magnitude < 9_007_199_254_740_992 { return whole }
        var index = start
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        var digits: [UInt8] = []
        var fractionDigits = 0
        var inFraction = false
        while index < end, bytes[index] != UInt8(ascii: "e"), bytes[index] != UInt8(ascii: "E") {
            if bytes[index] == UInt8(ascii: ".") {
                inFraction = true
            } else {
                digits.append(bytes[index] - UInt8(ascii: "0"))
                if inFraction { fractionDigits += 1 }
            }
            index += 1
        }
        var exponent = 0
        if index < end {
            index += 1
            var exponentNegative = false
            if bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                exponentNegative = bytes[index] == UInt8(ascii: "-")
                index += 1
            }
            while index < end {
                exponent = min(exponent * 10 + Int(bytes[index] - UInt8(ascii: "0")), 10_000)
                index += 1
            }
            if exponentNegative { exponent = -exponent }
        }
        let scale = exponent - fractionDigits
        let kept = scale >= 0 ? digits[...] : digits.dropLast(min(-scale, digits.count))
        var value: Int64 = 0
        for digit in kept {
            let (shifted, overflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, carry) = shifted.addingReportingOverflow(negative ? -Int64(digit) : Int64(digit))
            guard !overflow, !carry else { return nil }
            value = sum
        }
        if scale > 0 {
            for _ in 0..<scale {
                let (shifted, overflow) = value.multipliedReportingOverflow(by: 10)
                guard !overflow else { return nil }
                value = shifted
            }
        }
        return value
    }

    /// A number node read as a `Double` (Foundation's `decode(Double.self)`): `nil` when the
    /// text is not a JSON number, or it overflows to infinity or underflows to zero.
    func doubleValue(_ node: Int) -> Double? {
        let item = nodes[node]
        let start = Int(item.start)
        let end = Int(item.end)
        guard Self.isValidNumber(bytes, start, end),
            let value = Double(String(decoding: bytes[start..<end], as: UTF8.self)), value.isFinite
        else { return nil }
        if value == 0, bytes[start..<end].contains(where: { $0 >= UInt8(ascii: "1") && $0 <= UInt8(ascii: "9") }) {
            // Underflow: only digits before an exponent count.
            let mantissa = bytes[start..<end].prefix { $0 != UInt8(ascii: "e") && $0 != UInt8(ascii: "E") }
            if mantissa.contains(where: { $0 >= UInt8(ascii: "1") && $0 <= UInt8(ascii: "9") }) { return nil }
        }
        return value
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`
    static func isValidNumber(_ bytes: [UInt8], _ start: Int, _ end: Int) -> Bool {
        var index = start
        func digits() -> Int {
            let first = index
            while index < end, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") { index += 1 }
            return index - first
        }
        if index < end, bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < end else { return false }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else if digits() == 0 {
            return false
        }
        if index < end, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { return false }
        }
        if index < end, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < end, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { return false }
        }
        return index == end
    }
}
