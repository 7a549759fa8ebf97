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
public struct JSONWriter: @unchecked Sendable {
    // @unchecked: `base` points into `storage`, which is copied before a write whenever
    // another writer shares it, so copies of a writer never see each other's writes.

    /// The memory written into (``JSONBytes``), shared by copies of this writer until one writes.
    private var storage: JSONBytes
    /// `storage.base`, kept here so a write needs no load through the class.
    private var base: UnsafeMutablePointer<UInt8>
    /// The number of bytes written.
    public private(set) var count = 0
    private var needsComma = false

    /// Creates an empty writer with room for `capacity` bytes.
    public init(capacity: Int = 512) {
        storage = JSONBytes(capacity: capacity)
        base = storage.base
    }

    /// The JSON written so far (a copy).
    public var bytes: [UInt8] { withUnsafeBufferPointer { Array($0) } }

    /// The JSON written so far (a copy).
    public var data: Data { Data(bytes: base, count: count) }

    /// Calls `body` with the bytes written so far, without copying them.
    public func withUnsafeBufferPointer<R, E: Error>(
        _ body: (UnsafeBufferPointer<UInt8>) throws(E) -> R
    ) throws(E) -> R {
        defer { withExtendedLifetime(storage) {} }
        return try body(UnsafeBufferPointer(start: base, count: count))
    }

    /// Forgets what was written, keeping the buffer: a writer reused for every message of a
    /// batch allocates its buffer once instead of per message.
    public mutating func removeAll() {
        count = 0
        needsComma = false
    }

    /// Makes room for `extra` more bytes in memory no other writer shares: one check per
    /// value written, then plain stores. Grows geometrically.
    @inline(__always)
    private mutating func reserve(_ extra: Int) {
        if count + extra > storage.capacity || !isKnownUniquelyReferenced(&storage) { grow(extra) }
    }

    @inline(never)
    private mutating func grow(_ extra: Int) {
        let capacity = count + extra > storage.capacity ? Swift.max(count + extra, 2 * storage.capacity) : storage.capacity
        storage = JSONBytes(capacity: capacity, copying: base, count: count)
        base = storage.base
    }

    /// Appends one byte; room reserved.
    @inline(__always)
    private mutating func put(_ byte: UInt8) {
        base[count] = byte
        count += 1
    }

    /// Appends `bytes`; room reserved.
    @inline(__always)
    private mutating func put(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        (base + count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    /// Appends one byte.
    @inline(__always)
    private mutating func append(_ byte: UInt8) {
        reserve(1)
        put(byte)
    }

    /// Appends `bytes`.
    @inline(__always)
    private mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        reserve(bytes.count)
        put(bytes)
    }

    /// Starts an object.
    public mutating func beginObject() {
        reserve(2)
        separate()
        put(UInt8(ascii: "{"))
        needsComma = false
    }

    /// Ends the object started last.
    public mutating func endObject() {
        append(UInt8(ascii: "}"))
        needsComma = true
    }

    /// Starts an array.
    public mutating func beginArray() {
        reserve(2)
        separate()
        put(UInt8(ascii: "["))
        needsComma = false
    }

    /// Ends the array started last.
    public mutating func endArray() {
        append(UInt8(ascii: "]"))
        needsComma = true
    }

    /// Writes a member name; the next value written is its value.
    public mutating func key(_ name: StaticString) {
        reserve(name.utf8CodeUnitCount + 4)
        separate()
        put(UInt8(ascii: "\""))
        put(UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        put(UInt8(ascii: "\""))
        put(UInt8(ascii: ":"))
        needsComma = false
    }

    /// Writes a member name already written as JSON, quotes and colon included (`"name":`,
    /// the bytes ``key(_:)-(String)`` writes into an empty writer): for names written in
    /// every message, escaped once.
    public mutating func key(encoded name: [UInt8]) {
        name.withUnsafeBufferPointer { name in
            reserve(name.count + 1)
            separate()
            put(name)
        }
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
        append(UInt8(ascii: ":"))
        needsComma = false
    }

    /// Writes a member name that needs no escaping (a payload's own ASCII keys), as is.
    public mutating func plainKey(_ name: String) {
        Self.withUTF8(of: name) { name in
            reserve(name.count + 4)
            separate()
            put(UInt8(ascii: "\""))
            put(name)
            put(UInt8(ascii: "\""))
            put(UInt8(ascii: ":"))
        }
        needsComma = false
    }

    /// A comma when the last thing written was a value; room for it reserved.
    @inline(__always)
    private mutating func separate() {
        if needsComma { put(UInt8(ascii: ",")) }
        needsComma = true
    }

    /// Writes a value that is already compact JSON (written by a `JSONWriter` earlier).
    public mutating func encoded(_ json: UnsafeBufferPointer<UInt8>) {
        reserve(json.count + 1)
        separate()
        put(json)
    }

    /// Writes a value that is already compact JSON (written by a `JSONWriter` earlier).
    public mutating func encoded(_ json: [UInt8]) {
        json.withUnsafeBufferPointer { encoded($0) }
    }

    /// Calls `body` with the UTF-8 bytes of `text`, without copying the string first (a
    /// `var` copy for `withUTF8` costs a retain and a release per string).
    @inline(__always)
    private static func withUTF8(of text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        if text.utf8.withContiguousStorageIfAvailable(body) == nil {
            var text = text
            text.withUTF8(body)
        }
    }

    /// Writes a string. Runs of bytes that need no escaping are copied whole (found eight
    /// bytes at a time, ``nextSpecial(in:from:)``).
    public mutating func string(_ value: String) {
        Self.withUTF8(of: value) { utf8 in
            // Room for the plain case; an escape reserves its own.
            reserve(utf8.count + 3)
            separate()
            put(UInt8(ascii: "\""))
            var start = 0
            var index = Self.nextSpecial(in: utf8, from: 0)
            while index < utf8.count {
                put(UnsafeBufferPointer(rebasing: utf8[start..<index]))
                escape(utf8[index])
                reserve(utf8.count - index + 1)
                start = index + 1
                index = Self.nextSpecial(in: utf8, from: start)
            }
            put(UnsafeBufferPointer(rebasing: utf8[start...]))
            put(UInt8(ascii: "\""))
        }
    }

    private mutating func escape(_ byte: UInt8) {
        reserve(6)
        put(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): put(byte)
        case 0x08: put(UInt8(ascii: "b"))
        case 0x0C: put(UInt8(ascii: "f"))
        case 0x0A: put(UInt8(ascii: "n"))
        case 0x0D: put(UInt8(ascii: "r"))
        case 0x09: put(UInt8(ascii: "t"))
        default:
            put(UInt8(ascii: "u"))
            put(UInt8(ascii: "0"))
            put(UInt8(ascii: "0"))
            put(Self.hexDigit(byte >> 4))
            put(Self.hexDigit(byte & 0xF))
        }
    }

    @inline(__always)
    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }

    /// Writes an integer (in decimal, without going through `String`).
    public mutating func integer(_ value: Int64) {
        reserve(21)
        separate()
        if value >= 0, value < 10 {
            put(UInt8(ascii: "0") + UInt8(value))
            return
        }
        if value < 0 { put(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        let digits = Self.digitCount(magnitude)
        var position = count + digits
        count = position
        repeat {
            position -= 1
            base[position] = UInt8(ascii: "0") + UInt8(magnitude % 10)
            magnitude /= 10
        } while magnitude > 0
    }

    /// Writes a double as Foundation does (`1` for 1.0, `1e+20`, `-0`).
    /// - Throws: `encodingFailed` for NaN and infinities.
    public mutating func double(_ value: Double) throws(ModelError) {
        guard value.isFinite else { throw ModelError(.encodingFailed, "cannot encode \(value) as JSON") }
        let text = Self.doubleText(value)
        Self.withUTF8(of: text) { utf8 in
            reserve(utf8.count + 1)
            separate()
            put(utf8)
        }
    }

    /// Writes `true` or `false`.
    public mutating func bool(_ value: Bool) {
        literal(value ? "true" : "false")
    }

    /// Writes `null`.
    public mutating func null() {
        literal("null")
    }

    /// Writes a constant value as is.
    @inline(__always)
    private mutating func literal(_ text: StaticString) {
        reserve(text.utf8CodeUnitCount + 1)
        separate()
        put(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
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
        if members.count <= Self.membersSortedInPlace {
            // A few members (a notification's `recordFields`): their indices sorted in a
            // temporary buffer on the stack, not the members copied into a sorted array (an
            // allocation per object, 3% of encoding a typical notification in perf).
            try withUnsafeTemporaryAllocation(of: Dictionary<String, Value>.Index.self, capacity: members.count) {
                (order) throws(ModelError) in
                var count = 0
                for index in members.indices {
                    order.initializeElement(at: count, to: index)
                    count += 1
                    // Insertion sort: few members, each compared with the ones before it.
                    var position = count - 1
                    while position > 0, Self.precedes(members.keys[order[position]], members.keys[order[position - 1]]) {
                        order.swapAt(position, position - 1)
                        position -= 1
                    }
                }
                defer { order[..<count].deinitialize() }
                for index in order[..<count] {
                    let member = members[index]
                    key(member.key)
                    do throws(ModelError) { try write(&self, member.value) } catch { throw error.prefixed(member.key) }
                }
            }
        } else {
            for (name, member) in members.sorted(by: { Self.precedes($0.key, $1.key) }) {
                key(name)
                do { try write(&self, member) } catch { throw error.prefixed(name) }
            }
        }
        endObject()
    }

    /// The most members ``object(_:_:)`` sorts in place (insertion sort: quadratic).
    static let membersSortedInPlace = 16

    /// Whether `left` sorts before `right` by UTF-8 bytes (Foundation's `.sortedKeys` order).
    public static func precedes(_ left: String, _ right: String) -> Bool {
        var order = 0
        var shorter = false
        withUTF8(of: left) { left in
            withUTF8(of: right) { right in
                let common = min(left.count, right.count)
                if common > 0, let l = left.baseAddress, let r = right.baseAddress { order = Int(memcmp(l, r, common)) }
                shorter = left.count < right.count
            }
        }
        return order != 0 ? order < 0 : shorter
    }
}
