import Foundation

/// Writes Herald's compact binary encoding of internal topics (`Match.compactForm`): a
/// version byte, then values in a fixed order with no names — lengths and counts as LEB128
/// varints, integers and doubles as 8 little-endian bytes, an optional as a presence byte
/// (an optional string as its length + 1, 0 meaning absent). `CompactReader` reads it back.
///
/// Hand-written rather than a serialization library: the format is a few dozen lines, has
/// to reject exactly what the JSON path rejects, and adds no dependency. Reuse one writer
/// for a batch (`removeAll()`): it then allocates only the returned `Data`.
public struct CompactWriter: Sendable {
    /// The bytes written so far.
    public private(set) var bytes: [UInt8]

    /// An empty writer with room for `capacity` bytes.
    public init(capacity: Int = 1024) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Empties the buffer, keeping its capacity.
    public mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
    }

    /// The bytes written, as `Data`.
    public var data: Data { Data(bytes) }

    mutating func byte(_ value: UInt8) {
        bytes.append(value)
    }

    mutating func bool(_ value: Bool) {
        bytes.append(value ? 1 : 0)
    }

    mutating func varint(_ value: Int) {
        var rest = UInt64(value)
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    mutating func int64(_ value: Int64) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// - Throws: `encodingFailed` for a non-finite value, as the JSON writer does.
    mutating func double(_ value: Double) throws(ModelError) {
        guard value.isFinite else { throw ModelError(.encodingFailed, "cannot encode \(value): not a finite number") }
        int64(Int64(bitPattern: value.bitPattern))
    }

    mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            varint(utf8.count)
            bytes.append(contentsOf: utf8)
        }
    }

    mutating func optionalString(_ value: String?) {
        guard var value else { return byte(0) }
        value.withUTF8 { utf8 in
            varint(utf8.count + 1)
            bytes.append(contentsOf: utf8)
        }
    }

    mutating func strings(_ values: [String]) {
        varint(values.count)
        for value in values { string(value) }
    }

    mutating func optionalInt64(_ value: Int64?) {
        guard let value else { return byte(0) }
        byte(1)
        int64(value)
    }

    /// Length-prefixed raw bytes.
    mutating func blob(_ value: some Collection<UInt8>) {
        varint(value.count)
        bytes.append(contentsOf: value)
    }
}
