import HeraldModel

/// One order of a ``PayloadTemplate``: the fixed bytes of a payload, cut where the values of
/// its holes go.
struct PayloadLayout: Sendable {
    /// How `af` sits in its kind dictionary: last in APNs order (`,"af":{…}`), first in
    /// sorted order (`"af":{…},`, `dbs` always follows). Both are checked when splitting.
    enum DesiredKeysPlacement: Sendable {
        case last, first
    }

    /// The fixed bytes, every piece in order.
    private let fixed: [UInt8]
    /// After `fixed[previous end..<end]` comes the hole's value; the rest of `fixed` ends the payload.
    private let pieces: [(end: Int, hole: PayloadTemplate.Hole)]
    private let placement: DesiredKeysPlacement
    /// Whether desired keys are written in sorted key order (the sorted layout) or in the
    /// subscription's order (the APNs layout).
    private var sortsMembers: Bool { placement == .first }

    /// The number of fixed bytes: every payload written from the layout is longer.
    var fixedBytes: Int { fixed.count }

    /// Cuts `bytes` (a payload written with each hole's ``PayloadTemplate/Hole/marker`` in its
    /// slot) at the markers; `nil` when a marker is not found exactly once, or `af` does not
    /// sit as expected.
    init?(splitting bytes: [UInt8], at holes: [PayloadTemplate.Hole]) {
        var found: [(start: Int, end: Int, hole: PayloadTemplate.Hole)] = []
        var placement = DesiredKeysPlacement.last
        for hole in holes {
            var writer = JSONWriter(capacity: 16)
            writer.string(hole.marker)
            let marker = writer.bytes
            let starts = Self.occurrences(of: marker, in: bytes)
            guard starts.count == 1, var start = starts.first else { return nil }
            var end = start + marker.count
            if hole == .desiredKeys {
                let key = Array(#""af":"#.utf8)
                guard start >= key.count + 1, Array(bytes[(start - key.count)..<start]) == key else { return nil }
                start -= key.count
                if bytes[start - 1] == UInt8(ascii: ",") {
                    start -= 1
                    placement = .last
                } else if end < bytes.count, bytes[end] == UInt8(ascii: ",") {
                    end += 1
                    placement = .first
                } else {
                    return nil
                }
            }
            found.append((start, end, hole))
        }
        found.sort { $0.start < $1.start }
        var fixed: [UInt8] = []
        fixed.reserveCapacity(bytes.count)
        var pieces: [(end: Int, hole: PayloadTemplate.Hole)] = []
        var previous = 0
        for hole in found {
            guard hole.start >= previous else { return nil }
            fixed += bytes[previous..<hole.start]
            pieces.append((fixed.count, hole.hole))
            previous = hole.end
        }
        fixed += bytes[previous...]
        self.fixed = fixed
        self.pieces = pieces
        self.placement = placement
    }

    /// The size of the payload written from `holes`: the fixed bytes and the holes' values
    /// (`af` with its key and one comma).
    func size(with holes: HoleBytes) -> Int {
        var size = fixed.count
        for piece in pieces {
            let range = holes.range(of: piece.hole, sorted: sortsMembers)
            guard !range.isEmpty else { continue }
            size += range.count + (piece.hole == .desiredKeys ? Self.desiredKeysFraming.count : 0)
        }
        return size
    }

    /// `,"af":` (last) or `"af":` and `,` (first): six bytes either way.
    private static let desiredKeysFraming = Array(#","af":"#.utf8)

    /// The payload of one notification: the fixed bytes with the holes' values between them.
    /// `size` is ``size(with:)`` of the same holes: the bytes are copied straight into a
    /// buffer of that size (no `Array.append` per piece, 2% of composing a typical
    /// notification in perf), a temporary one on the stack, which becomes the array in one
    /// copy: `[UInt8](unsafeUninitializedCapacity:)` looked up the array's generic metadata
    /// on every call (1% of `herald bench payload` in perf), `Array(UnsafeBufferPointer)` does not.
    func write(_ holes: HoleBytes, size: Int) -> [UInt8] {
        fixed.withUnsafeBufferPointer { fixed in
            holes.withUnsafeBufferPointer { values in
                withUnsafeTemporaryAllocation(of: UInt8.self, capacity: size) { buffer in
                    var out = Output(buffer)
                    Self.desiredKeysFraming.withUnsafeBufferPointer { framing in
                        var previous = 0
                        for piece in pieces {
                            out.put(UnsafeBufferPointer(rebasing: fixed[previous..<piece.end]))
                            previous = piece.end
                            let range = holes.range(of: piece.hole, sorted: sortsMembers)
                            guard !range.isEmpty else { continue }
                            guard piece.hole == .desiredKeys else {
                                out.put(UnsafeBufferPointer(rebasing: values[range]))
                                continue
                            }
                            switch placement {
                            case .last:
                                out.put(framing)
                                out.put(UnsafeBufferPointer(rebasing: values[range]))
                            case .first:
                                out.put(UnsafeBufferPointer(rebasing: framing.dropFirst()))
                                out.put(UnsafeBufferPointer(rebasing: values[range]))
                                out.put(UnsafeBufferPointer(rebasing: framing[..<1]))
                            }
                        }
                        out.put(UnsafeBufferPointer(rebasing: fixed[previous...]))
                    }
                    precondition(out.written == size, "PayloadLayout: fewer bytes than size(with:) counted")
                    return [UInt8](UnsafeBufferPointer(buffer))
                }
            }
        }
    }

    /// Where ``write(_:size:)`` puts the bytes: a value with a mutating method, not a local
    /// function capturing a `var` count (which the compiler checks for exclusive access at
    /// run time on every call: `swift_beginAccess`, 1% in perf).
    private struct Output {
        let buffer: UnsafeMutableBufferPointer<UInt8>
        var written = 0

        init(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
            self.buffer = buffer
        }

        mutating func put(_ bytes: UnsafeBufferPointer<UInt8>) {
            precondition(written + bytes.count <= buffer.count, "PayloadLayout: more bytes than size(with:) counted")
            guard let source = bytes.baseAddress, !bytes.isEmpty, let target = buffer.baseAddress else { return }
            (target + written).initialize(from: source, count: bytes.count)
            written += bytes.count
        }
    }

    /// Where `pattern` starts in `bytes`, every time (once per template; a plain loop over
    /// the buffers, cheap even in a debug build, where composers made per notification, as
    /// in `herald payload build` and the tests, make a template every time).
    private static func occurrences(of pattern: [UInt8], in bytes: [UInt8]) -> [Int] {
        guard !pattern.isEmpty, bytes.count >= pattern.count else { return [] }
        return bytes.withUnsafeBufferPointer { bytes in
            pattern.withUnsafeBufferPointer { pattern in
                var starts: [Int] = []
                let first = pattern[0]
                for start in 0...(bytes.count - pattern.count) where bytes[start] == first {
                    var length = 1
                    while length < pattern.count, bytes[start + length] == pattern[length] { length += 1 }
                    if length == pattern.count { starts.append(start) }
                }
                return starts
            }
        }
    }
}
