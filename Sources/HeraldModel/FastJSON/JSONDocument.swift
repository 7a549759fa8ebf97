import Foundation

/// A JSON document scanned into a flat list of nodes over its UTF-8 bytes: the fast path
/// of `WireCodec` for the per-message wire types (record changes, matches, notifications).
///
/// Hand-written because no library available here decodes without Codable's per-key
/// overhead (Foundation's `JSONDecoder` goes through generic keyed containers for every
/// key; Debian packages no yyjson and simdjson is C++). The scan checks the structure only;
/// string and number contents are checked when a reader converts them, exactly as
/// Foundation's `JSONDecoder` does, so that the same documents are accepted and the same
/// values rejected (an unread member with a malformed number does not fail a decode).
///
/// Structure rules copied from Foundation (checked by `FastCodecPropertyTests`): a leading
/// byte-order mark and surrounding whitespace are allowed, one trailing comma in an array or
/// object is allowed, nesting deeper than 512 is rejected, the four bytes after `\u` may be
/// anything but a quote (hex digits are checked on conversion).
public struct JSONDocument: Sendable {
    /// What a node is.
    public enum Kind: UInt8, Sendable {
        case null, `true`, `false`, number, string, array, object
    }

    /// One value: for strings and numbers `start..<end` is the text (without quotes); for
    /// arrays and objects `count` is the number of elements or members, which follow the
    /// node (an object's as key, value pairs); `next` is the index after the value's subtree.
    struct Node: Sendable {
        var kind: Kind
        var escaped: Bool
        var start: Int32
        var end: Int32
        var count: Int32
        var next: Int32
    }

    /// The deepest nesting Foundation accepts.
    static let maxDepth = 512

    let bytes: [UInt8]
    var nodes: [Node]

    /// Scans `data`.
    /// - Throws: `ModelError` (`malformedJSON`) when the structure is not JSON.
    public init(_ data: Data) throws(ModelError) {
        bytes = try Self.utf8(data)
        nodes = []
        nodes.reserveCapacity(bytes.count / 8 + 4)
        var scanner = Scanner(bytes: bytes)
        do {
            try bytes.withUnsafeBufferPointer { (buffer) throws(ScanFailure) in
                scanner.buffer = buffer
                scanner.skipByteOrderMark()
                try scanner.value(depth: 0, into: &nodes)
                scanner.skipWhitespace()
                guard scanner.position == buffer.count else { throw ScanFailure(offset: scanner.position) }
            }
        } catch {
            throw ModelError(.malformedJSON, "not valid JSON (at byte \(error.offset))")
        }
    }

    struct ScanFailure: Error { var offset: Int }

    /// The document as UTF-8. Like Foundation, a UTF-16 or UTF-32 document (told by its
    /// byte-order mark or by where its first four bytes are zero) is converted first.
    static func utf8(_ data: Data) throws(ModelError) -> [UInt8] {
        if data.count == 2 {
            // Two bytes: a zero says UTF-16, as in Foundation (three bytes are read as UTF-8).
            let first = data[data.startIndex]
            let second = data[data.startIndex + 1]
            guard first == 0 || second == 0 else { return [UInt8](data) }
            return try converted(data, first == 0 ? .utf16BigEndian : .utf16LittleEndian, skipping: 0)
        }
        guard data.count >= 4 else { return [UInt8](data) }
        let b = (data[data.startIndex], data[data.startIndex + 1], data[data.startIndex + 2], data[data.startIndex + 3])
        if b.0 != 0, b.1 != 0, b.0 < 0x80 { return [UInt8](data) }
        let encoding: String.Encoding
        var skip = 0
        switch b {
        case (0xEF, 0xBB, 0xBF, _): return [UInt8](data)
        case (0x00, 0x00, 0xFE, 0xFF): (encoding, skip) = (.utf32BigEndian, 4)
        case (0xFF, 0xFE, 0x00, 0x00): (encoding, skip) = (.utf32LittleEndian, 4)
        case (0xFF, 0xFE, _, _): (encoding, skip) = (.utf16LittleEndian, 2)
        case (0xFE, 0xFF, _, _): (encoding, skip) = (.utf16BigEndian, 2)
        case (0, 0, 0, _): encoding = .utf32BigEndian
        case (_, 0, 0, 0): encoding = .utf32LittleEndian
        case (0, _, 0, _): encoding = .utf16BigEndian
        case (_, 0, _, 0): encoding = .utf16LittleEndian
        default: return [UInt8](data)
        }
        return try converted(data, encoding, skipping: skip)
    }

    private static func converted(_ data: Data, _ encoding: String.Encoding, skipping skip: Int) throws(ModelError) -> [UInt8] {
        // Foundation's conversion also refuses a text holding U+0000 (FuzzWireCodec finding).
        guard let text = String(data: data.dropFirst(skip), encoding: encoding), !text.utf8.contains(0) else {
            throw ModelError(.malformedJSON, "not valid JSON (not text in the detected \(encoding))")
        }
        return Array(text.utf8)
    }

    /// A recursive-descent scan appending nodes in document order.
    struct Scanner {
        let bytes: [UInt8]
        var buffer: UnsafeBufferPointer<UInt8> = UnsafeBufferPointer(start: nil, count: 0)
        var position = 0

        init(bytes: [UInt8]) { self.bytes = bytes }

        mutating func skipByteOrderMark() {
            if buffer.count >= 3, buffer[0] == 0xEF, buffer[1] == 0xBB, buffer[2] == 0xBF { position = 3 }
        }

        mutating func skipWhitespace() {
            while position < buffer.count {
                switch buffer[position] {
                case 0x20, 0x0A, 0x0D, 0x09: position += 1
                default: return
                }
            }
        }

        func failure() -> ScanFailure { ScanFailure(offset: position) }

        mutating func value(depth: Int, into nodes: inout [Node]) throws(ScanFailure) {
            skipWhitespace()
            guard position < buffer.count else { throw failure() }
            let byte = buffer[position]
            switch byte {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                guard depth < JSONDocument.maxDepth else { throw failure() }
                try container(isObject: byte == UInt8(ascii: "{"), depth: depth + 1, into: &nodes)
            case UInt8(ascii: "\""):
                let (start, end, escaped) = try string()
                nodes.append(Node(kind: .string, escaped: escaped, start: start, end: end, count: 0, next: Int32(nodes.count + 1)))
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                let start = position
                position += 1
                while position < buffer.count, Self.isNumberByte(buffer[position]) { position += 1 }
                try requireDelimiter()
                nodes.append(Node(kind: .number, escaped: false, start: Int32(start), end: Int32(position), count: 0, next: Int32(nodes.count + 1)))
            case UInt8(ascii: "t"):
                try literal("true")
                nodes.append(Node(kind: .true, escaped: false, start: 0, end: 0, count: 0, next: Int32(nodes.count + 1)))
            case UInt8(ascii: "f"):
                try literal("false")
                nodes.append(Node(kind: .false, escaped: false, start: 0, end: 0, count: 0, next: Int32(nodes.count + 1)))
            case UInt8(ascii: "n"):
                try literal("null")
                nodes.append(Node(kind: .null, escaped: false, start: 0, end: 0, count: 0, next: Int32(nodes.count + 1)))
            default:
                throw failure()
            }
        }

        static func isNumberByte(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"),
                UInt8(ascii: "+"), UInt8(ascii: "-"):
                true
            default:
                false
            }
        }

        /// After a scalar: the end, whitespace, `,`, `]` or `}` (so `1true` is not two values).
        func requireDelimiter() throws(ScanFailure) {
            guard position < buffer.count else { return }
            switch buffer[position] {
            case 0x20, 0x0A, 0x0D, 0x09, UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"): return
            default: throw failure()
            }
        }

        mutating func literal(_ word: StaticString) throws(ScanFailure) {
            let count = word.utf8CodeUnitCount
            guard position + count <= buffer.count else { throw failure() }
            for index in 0..<count where buffer[position + index] != word.utf8Start[index] { throw failure() }
            position += count
            try requireDelimiter()
        }

        /// A string's text range; only `\u` escapes are checked here (four hex digits).
        mutating func string() throws(ScanFailure) -> (Int32, Int32, Bool) {
            position += 1
            let start = position
            var escaped = false
            while position < buffer.count {
                let byte = buffer[position]
                if byte == UInt8(ascii: "\"") {
                    let end = position
                    position += 1
                    return (Int32(start), Int32(end), escaped)
                }
                if byte == UInt8(ascii: "\\") {
                    escaped = true
                    guard position + 1 < buffer.count else { throw failure() }
                    if buffer[position + 1] == UInt8(ascii: "u") {
                        // Foundation needs four bytes after `\u`, none of them a quote; whether
                        // they are hex digits is checked on conversion.
                        guard position + 5 < buffer.count else { throw failure() }
                        for index in 2...5 where buffer[position + index] == UInt8(ascii: "\"") { throw failure() }
                        position += 6
                    } else {
                        position += 2
                    }
                    continue
                }
                position += 1
            }
            throw failure()
        }

        mutating func container(isObject: Bool, depth: Int, into nodes: inout [Node]) throws(ScanFailure) {
            let index = nodes.count
            nodes.append(Node(kind: isObject ? .object : .array, escaped: false, start: Int32(position), end: 0, count: 0, next: 0))
            position += 1
            let close = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
            var count: Int32 = 0
            skipWhitespace()
            while true {
                guard position < buffer.count else { throw failure() }
                if buffer[position] == close {
                    position += 1
                    break
                }
                if isObject {
                    guard buffer[position] == UInt8(ascii: "\"") else { throw failure() }
                    let (start, end, escaped) = try string()
                    nodes.append(Node(kind: .string, escaped: escaped, start: start, end: end, count: 0, next: Int32(nodes.count + 1)))
                    skipWhitespace()
                    guard position < buffer.count, buffer[position] == UInt8(ascii: ":") else { throw failure() }
                    position += 1
                }
                try value(depth: depth, into: &nodes)
                count += 1
                skipWhitespace()
                guard position < buffer.count else { throw failure() }
                if buffer[position] == UInt8(ascii: ",") {
                    position += 1
                    skipWhitespace()
                } else if buffer[position] != close {
                    throw failure()
                }
            }
            nodes[index].count = count
            nodes[index].end = Int32(position)
            nodes[index].next = Int32(nodes.count)
        }
    }

    static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }
}
