import Foundation

/// Writes compact JSON into a byte buffer, byte for byte as Herald's `JSONEncoder`
/// (`.sortedKeys`, `.withoutEscapingSlashes`) writes it: `"`, `\` and control characters
/// escaped (`\b \f \n \r \t`, else `\u00xx`), everything else raw; doubles as Swift prints
/// them without a trailing `.0`; object keys in UTF-8 byte order.
///
/// Hand-written for the same reason as `JSONDocument`: Foundation's encoder goes through
/// Codable's generic containers for every key. The wire types write their members in sorted
/// order themselves (`WireEncodable`); `FastCodecPropertyTests` compares the bytes. The
/// push payload writer (HeraldPayload) writes through it too, after measuring with
/// ``stringSize(_:)`` and ``size(of:)``.
///
/// Commas need no stack: a comma goes before a value or key exactly when the last thing
/// written was a value (a scalar or a closed container), not an opening bracket or a key.
public struct JSONWriter: Sendable {
    /// The JSON written so far.
    public private(set) var bytes: [UInt8] = []
    private var needsComma = false

    /// Creates an empty writer with room for `capacity` bytes.
    public init(capacity: Int = 512) {
        bytes.reserveCapacity(capacity)
    }

    /// The JSON written so far.
    public var data: Data { Data(bytes) }

    /// Forgets what was written, keeping the buffer: a writer reused for every message of a
    /// batch allocates its buffer once instead of per message.
    public mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        needsComma = false
    }

    /// Starts an object.
    public mutating func beginObject() {
        separate()
        bytes.append(UInt8(ascii: "{"))
        needsComma = false
    }

    /// Ends the object started last.
    public mutating func endObject() {
        bytes.append(UInt8(ascii: "}"))
        needsComma = true
    }

    /// Starts an array.
    public mutating func beginArray() {
        separate()
        bytes.append(UInt8(ascii: "["))
        needsComma = false
    }

    /// Ends the array started last.
    public mutating func endArray() {
        bytes.append(UInt8(ascii: "]"))
        needsComma = true
    }

    /// Writes a member name; the next value written is its value.
    public mutating func key(_ name: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    /// Writes a member name already written as JSON, quotes and colon included (`"name":`,
    /// the bytes ``key(_:)-(String)`` writes into an empty writer): for names written in
    /// every message, escaped once.
    public mutating func key(encoded name: [UInt8]) {
        separate()
        bytes.append(contentsOf: name)
        needsComma = false
    }

    /// Starts another value after the bytes written so far, without a comma: for writing
    /// several separate JSON values one after another into one buffer.
    public mutating func beginFragment() {
        needsComma = false
    }

    /// Writes a member name that is not a constant.
    public mutating func key(_ name: String) {
        string(name)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    /// Writes a member name that needs no escaping (a payload's own ASCII keys), as is.
    public mutating func plainKey(_ name: String) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        var name = name
        name.withUTF8 { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    @inline(__always)
    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
        needsComma = true
    }

    /// Writes a value that is already compact JSON (written by a `JSONWriter` earlier).
    public mutating func encoded(_ json: UnsafeBufferPointer<UInt8>) {
        separate()
        bytes.append(contentsOf: json)
    }

    /// Writes a value that is already compact JSON (written by a `JSONWriter` earlier).
    public mutating func encoded(_ json: [UInt8]) {
        json.withUnsafeBufferPointer { encoded($0) }
    }

    /// Writes a string. Runs of bytes that need no escaping are copied whole (found eight
    /// bytes at a time, ``nextSpecial(in:from:)``).
    public mutating func string(_ value: String) {
        separate()
        var value = value
        value.withUTF8 { utf8 in
            // Grown geometrically: `reserveCapacity` alone would grow to exactly `needed`.
            let needed = bytes.count + utf8.count + 2
            if needed > bytes.capacity { bytes.reserveCapacity(Swift.max(needed, 2 * bytes.capacity)) }
            bytes.append(UInt8(ascii: "\""))
            var start = 0
            var index = Self.nextSpecial(in: utf8, from: 0)
            while index < utf8.count {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
                escape(utf8[index])
                start = index + 1
                index = Self.nextSpecial(in: utf8, from: start)
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
            bytes.append(UInt8(ascii: "\""))
        }
    }

    private mutating func escape(_ byte: UInt8) {
        bytes.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
        case 0x08: bytes.append(UInt8(ascii: "b"))
        case 0x0C: bytes.append(UInt8(ascii: "f"))
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        default:
            bytes.append(UInt8(ascii: "u"))
            bytes.append(UInt8(ascii: "0"))
            bytes.append(UInt8(ascii: "0"))
            bytes.append(Self.hexDigit(byte >> 4))
            bytes.append(Self.hexDigit(byte & 0xF))
        }
    }

    @inline(__always)
    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }

    /// Writes an integer (in decimal, without going through `String`).
    public mutating func integer(_ value: Int64) {
        separate()
        if value >= 0, value < 10 {
            bytes.append(UInt8(ascii: "0") + UInt8(value))
            return
        }
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        let digits = Self.digitCount(magnitude)
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: digits))
        bytes.withUnsafeMutableBufferPointer { buffer in
            var position = start + digits
            repeat {
                position -= 1
                buffer[position] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
        }
    }

    /// Writes a double as Foundation does (`1` for 1.0, `1e+20`, `-0`).
    /// - Throws: `encodingFailed` for NaN and infinities.
    public mutating func double(_ value: Double) throws(ModelError) {
        guard value.isFinite else { throw ModelError(.encodingFailed, "cannot encode \(value) as JSON") }
        separate()
        bytes.append(contentsOf: Self.doubleText(value).utf8)
    }

    /// Writes `true` or `false`.
    public mutating func bool(_ value: Bool) {
        separate()
        if value {
            bytes.append(contentsOf: [UInt8(ascii: "t"), UInt8(ascii: "r"), UInt8(ascii: "u"), UInt8(ascii: "e")])
        } else {
            bytes.append(contentsOf: [UInt8(ascii: "f"), UInt8(ascii: "a"), UInt8(ascii: "l"), UInt8(ascii: "s"), UInt8(ascii: "e")])
        }
    }

    /// Writes `null`.
    public mutating func null() {
        separate()
        bytes.append(contentsOf: [UInt8(ascii: "n"), UInt8(ascii: "u"), UInt8(ascii: "l"), UInt8(ascii: "l")])
    }

    /// Writes a list of strings.
    public mutating func strings(_ values: [String]) {
        beginArray()
        for value in values { string(value) }
        endArray()
    }

    /// Writes any JSON value, object keys sorted.
    public mutating func value(_ json: JSONValue) throws(ModelError) {
        switch json {
        case .null: null()
        case .bool(let value): bool(value)
        case .integer(let value): integer(value)
        case .double(let value): try double(value)
        case .string(let value): string(value)
        case .array(let elements):
            beginArray()
            for (index, element) in elements.enumerated() {
                do { try value(element) } catch { throw error.prefixed(index: index) }
            }
            endArray()
        case .object(let members):
            try object(members) { (writer, member) throws(ModelError) in try writer.value(member) }
        }
    }

    /// Writes a dictionary as an object with keys in UTF-8 byte order.
    public mutating func object<Value>(
        _ members: [String: Value], _ write: (inout JSONWriter, Value) throws(ModelError) -> Void
    ) throws(ModelError) {
        beginObject()
        for (name, member) in members.sorted(by: { Self.precedes($0.key, $1.key) }) {
            key(name)
            do { try write(&self, member) } catch { throw error.prefixed(name) }
        }
        endObject()
    }

    /// Whether `left` sorts before `right` by UTF-8 bytes (Foundation's `.sortedKeys` order).
    public static func precedes(_ left: String, _ right: String) -> Bool {
        var left = left
        var right = right
        return left.withUTF8 { left in
            right.withUTF8 { right in
                let common = min(left.count, right.count)
                if common > 0, let l = left.baseAddress, let r = right.baseAddress {
                    let order = memcmp(l, r, common)
                    if order != 0 { return order < 0 }
                }
                return left.count < right.count
            }
        }
    }
}
