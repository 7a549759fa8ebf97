import Foundation

/// Writes compact JSON into a byte buffer, byte for byte as Herald's `JSONEncoder`
/// (`.sortedKeys`, `.withoutEscapingSlashes`) writes it: `"`, `\` and control characters
/// escaped (`\b \f \n \r \t`, else `\u00xx`), everything else raw; doubles as Swift prints
/// them without a trailing `.0`; object keys in UTF-8 byte order.
///
/// Hand-written for the same reason as `JSONDocument`: Foundation's encoder goes through
/// Codable's generic containers for every key. The wire types write their members in sorted
/// order themselves (`WireEncodable`); `FastCodecPropertyTests` compares the bytes.
public struct JSONWriter: Sendable {
    /// The JSON written so far.
    public private(set) var bytes: [UInt8] = []
    private var needsComma = [false]

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
        needsComma.removeAll(keepingCapacity: true)
        needsComma.append(false)
    }

    /// Starts an object.
    public mutating func beginObject() {
        separate()
        bytes.append(UInt8(ascii: "{"))
        needsComma.append(false)
    }

    /// Ends the object started last.
    public mutating func endObject() {
        needsComma.removeLast()
        bytes.append(UInt8(ascii: "}"))
    }

    /// Starts an array.
    public mutating func beginArray() {
        separate()
        bytes.append(UInt8(ascii: "["))
        needsComma.append(false)
    }

    /// Ends the array started last.
    public mutating func endArray() {
        needsComma.removeLast()
        bytes.append(UInt8(ascii: "]"))
    }

    /// Writes a member name; the next value written is its value.
    public mutating func key(_ name: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
        needsComma[needsComma.count - 1] = false
    }

    /// Writes a member name that is not a constant.
    public mutating func key(_ name: String) {
        string(name)
        bytes.append(UInt8(ascii: ":"))
        needsComma[needsComma.count - 1] = false
    }

    private mutating func separate() {
        if needsComma[needsComma.count - 1] { bytes.append(UInt8(ascii: ",")) }
        needsComma[needsComma.count - 1] = true
    }

    /// Writes a string.
    public mutating func string(_ value: String) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { utf8 in
            var runStart = 0
            for (index, byte) in utf8.enumerated() where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                runStart = index + 1
                bytes.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
                case 0x08: bytes.append(UInt8(ascii: "b"))
                case 0x0C: bytes.append(UInt8(ascii: "f"))
                case 0x0A: bytes.append(UInt8(ascii: "n"))
                case 0x0D: bytes.append(UInt8(ascii: "r"))
                case 0x09: bytes.append(UInt8(ascii: "t"))
                default:
                    let hex = Array("0123456789abcdef".utf8)
                    bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Writes an integer.
    public mutating func integer(_ value: Int64) {
        separate()
        if value >= 0, value < 10 {
            bytes.append(UInt8(ascii: "0") + UInt8(value))
            return
        }
        bytes.append(contentsOf: String(value).utf8)
    }

    /// Writes a double as Foundation does (`1` for 1.0, `1e+20`, `-0`).
    /// - Throws: `encodingFailed` for NaN and infinities.
    public mutating func double(_ value: Double) throws(ModelError) {
        guard value.isFinite else { throw ModelError(.encodingFailed, "cannot encode \(value) as JSON") }
        separate()
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        bytes.append(contentsOf: text.utf8)
    }

    /// Writes `true` or `false`.
    public mutating func bool(_ value: Bool) {
        separate()
        bytes.append(contentsOf: value ? Array("true".utf8) : Array("false".utf8))
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
        for (name, member) in members.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
            key(name)
            do { try write(&self, member) } catch { throw error.prefixed(name) }
        }
        endObject()
    }
}
