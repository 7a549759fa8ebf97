import HeraldModel

/// One order of a ``PayloadTemplate``: the fixed bytes of a payload, cut where the values of
/// its holes go.
struct PayloadLayout: Sendable {
    /// How `af` sits in its kind dictionary: last in APNs order (`,"af":{…}`), first in
    /// sorted order (`"af":{…},`, `dbs` always follows). Both are checked when splitting.
    enum DesiredKeysPlacement: Sendable {
        case last, first
    }

    /// The values a notification puts in the holes.
    struct HoleValues {
        var match: Match
        var zone: ZoneID
        var values: PayloadValues
        var badge: Int?
    }

    /// The fixed bytes, every piece in order.
    private let fixed: [UInt8]
    /// After `fixed[previous end..<end]` comes the hole's value; the rest of `fixed` ends the payload.
    private let pieces: [(end: Int, hole: PayloadTemplate.Hole)]
    private let placement: DesiredKeysPlacement
    /// Whether desired keys are written in sorted key order (the sorted layout) or in the
    /// subscription's order (the APNs layout).
    private let sortsMembers: Bool

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
        sortsMembers = placement == .first
    }

    /// The payload of one notification: the fixed bytes with the holes' values between them.
    func write(_ values: HoleValues, capacity: Int, scratch: inout JSONWriter) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(capacity)
        fixed.withUnsafeBufferPointer { fixed in
            var previous = 0
            for piece in pieces {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: fixed[previous..<piece.end]))
                previous = piece.end
                scratch.removeAll()
                guard writeValue(of: piece.hole, values, into: &scratch) else { continue }
                if piece.hole == .desiredKeys, placement == .last { out.append(UInt8(ascii: ",")) }
                if piece.hole == .desiredKeys { out += #""af":"#.utf8 }
                out += scratch.bytes
                if piece.hole == .desiredKeys, placement == .first { out.append(UInt8(ascii: ",")) }
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: fixed[previous...]))
        }
        return out
    }

    /// Writes a hole's value as ``PushPayload`` writes its slot; `false` when it has none
    /// (`af` without a desired key that has a value).
    private func writeValue(of hole: PayloadTemplate.Hole, _ holes: HoleValues, into writer: inout JSONWriter) -> Bool {
        switch hole {
        case .titleLocArgs: writer.strings(holes.values.title.texts)
        case .subtitleLocArgs: writer.strings(holes.values.subtitle.texts)
        case .locArgs: writer.strings(holes.values.alert.texts)
        case .badge: writer.integer(Int64(holes.badge ?? 0))
        case .nid: writer.string(holes.match.notificationID)
        case .zid: writer.string(holes.zone.zoneName)
        case .zoid: writer.string(holes.zone.ownerRecordName)
        case .rid: writer.string(holes.match.change.recordName)
        case .fo:
            writer.integer(Int64(holes.match.queryNotificationReason.map(NotificationComposer.pushCode(of:)) ?? 0))
        case .desiredKeys:
            guard let members = holes.values.desiredKeys, !members.isEmpty else { return false }
            writer.beginObject()
            if sortsMembers {
                for index in members.indices.sorted(by: { JSONWriter.precedes(members[$0].key, members[$1].key) }) {
                    writer.key(members[index].key)
                    writer.valueOrNull(members[index].value)
                }
            } else {
                for member in members {
                    writer.key(member.key)
                    writer.valueOrNull(member.value)
                }
            }
            writer.endObject()
        }
        return true
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
