import Foundation

/// Reads what `CompactWriter` wrote, from a borrowed buffer, checking every length against
/// what is left: truncated or malformed bytes are a `ModelError` (`malformedJSON`: the bytes
/// are not in the wire format), never a crash. Strings must be valid UTF-8.
struct CompactReader {
    private let buffer: UnsafeRawBufferPointer
    private(set) var offset: Int

    init(_ buffer: UnsafeRawBufferPointer, offset: Int = 0) {
        self.buffer = buffer
        self.offset = offset
    }

    /// Whether every byte was read.
    var isAtEnd: Bool { offset == buffer.count }

    static func malformed(_ reason: String) -> ModelError {
        ModelError(.malformedJSON, "not a compact value: \(reason)")
    }

    mutating func byte() throws(ModelError) -> UInt8 {
        guard offset < buffer.count else { throw Self.malformed("truncated") }
        defer { offset += 1 }
        return buffer[offset]
    }

    mutating func bool() throws(ModelError) -> Bool {
        switch try byte() {
        case 0: return false
        case 1: return true
        case let other: throw Self.malformed("\(other) is not a boolean")
        }
    }

    /// A presence byte: `true` when a value follows.
    mutating func isPresent() throws(ModelError) -> Bool {
        try bool()
    }

    /// A varint that must fit what is left of the buffer (every count and length does).
    mutating func length() throws(ModelError) -> Int {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let next = try byte()
            value |= UInt64(next & 0x7F) << shift
            if next < 0x80 { break }
            shift += 7
            guard shift < 35 else { throw Self.malformed("length too long") }
        }
        guard value <= UInt64(buffer.count - offset) + 1 else { throw Self.malformed("truncated") }
        return Int(value)
    }

    mutating func int64() throws(ModelError) -> Int64 {
        guard buffer.count - offset >= 8 else { throw Self.malformed("truncated") }
        defer { offset += 8 }
        return Int64(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: Int64.self))
    }

    mutating func double() throws(ModelError) -> Double {
        Double(bitPattern: UInt64(bitPattern: try int64()))
    }

    mutating func string() throws(ModelError) -> String {
        try text(count: try length())
    }

    mutating func optionalString() throws(ModelError) -> String? {
        let count = try length()
        return count == 0 ? nil : try text(count: count - 1)
    }

    mutating func strings() throws(ModelError) -> [String] {
        let count = try length()
        var values: [String] = []
        values.reserveCapacity(count)
        for _ in 0..<count { values.append(try string()) }
        return values
    }

    mutating func optionalInt64() throws(ModelError) -> Int64? {
        try isPresent() ? try int64() : nil
    }

    /// Length-prefixed raw bytes.
    mutating func blob() throws(ModelError) -> Data {
        let count = try length()
        guard buffer.count - offset >= count else { throw Self.malformed("truncated") }
        defer { offset += count }
        return Data(UnsafeRawBufferPointer(rebasing: buffer[offset..<offset + count]))
    }

    private mutating func text(count: Int) throws(ModelError) -> String {
        guard buffer.count - offset >= count else { throw Self.malformed("truncated") }
        guard count > 0 else { return "" }
        let start = buffer.baseAddress!.advanced(by: offset).assumingMemoryBound(to: UInt8.self)
        guard let value = UTF8Text.string(UnsafeBufferPointer(start: start, count: count)) else {
            throw Self.malformed("a string is not UTF-8")
        }
        offset += count
        return value
    }
}

extension CompactReader {
    /// A string that must not be empty; the error names `key`, as the JSON reader's does.
    mutating func nonEmpty(_ key: String) throws(ModelError) -> String {
        let value = try string()
        guard !value.isEmpty else { throw ModelError(.invalidValue, "must not be empty", path: key) }
        return value
    }

    /// An optional string that, when present, is not empty.
    mutating func nonEmptyIfPresent(_ key: String) throws(ModelError) -> String? {
        guard let value = try optionalString() else { return nil }
        guard !value.isEmpty else { throw ModelError(.invalidValue, "must not be empty", path: key) }
        return value
    }

    /// A list of non-empty strings.
    mutating func nonEmptyStrings(_ key: String) throws(ModelError) -> [String] {
        let values = try strings()
        if let index = values.firstIndex(where: \.isEmpty) {
            throw ModelError(.invalidValue, "must not be empty", path: "\(key)[\(index)]")
        }
        return values
    }

    /// A closed-set name, checked as the JSON reader checks it.
    mutating func wireEnum<E: WireEnum>(_ type: E.Type, _ key: String) throws(ModelError) -> E {
        let name = try string()
        do { return try E(wireName: name, at: []) } catch { throw error.prefixed(key) }
    }

    /// A zone ID with non-empty names.
    mutating func zoneID(_ key: String) throws(ModelError) -> ZoneID {
        do {
            return ZoneID(zoneName: try nonEmpty("zoneName"), ownerRecordName: try nonEmpty("ownerRecordName"))
        } catch {
            throw error.prefixed(key)
        }
    }
}

extension CompactWriter {
    mutating func zoneID(_ zone: ZoneID) {
        string(zone.zoneName)
        string(zone.ownerRecordName)
    }
}
