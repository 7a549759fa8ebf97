import HeraldModel

/// An APNs payload (`aps` + `ck`, docs/cloudkit-behaviour.md §5) under construction: the value of every
/// key and the size of its encoding, so that the payload's size is a sum while pruning.
///
/// Sizes start as cheap upper bounds (every byte of a text escaped as `\u00xx`): a payload
/// whose bound fits the limit — most of them — is never measured, its bytes are written
/// once. Only a payload that may not fit is measured exactly (``measure()``), once, before
/// pruning; from then on every size is exact.
///
/// Written in two orders from the same values, without building a `JSONValue`: as sent to
/// APNs (``encoded()``: the fixed key order of ``PayloadSlot``, `af` members in the
/// subscription's `desiredKeys` order) and as the notification carries it in
/// `apns.payload` (``canonicalEncoded()``: every object's keys sorted by UTF-8 bytes, what
/// `WireCodec` writes for the payload as a value). Objects inside values are written with
/// their keys sorted in both.
struct PushPayload {
    /// Which kind dictionary `ck` holds.
    enum Kind {
        /// `qry`: a query notification.
        case query
        /// `fet`: a zone notification.
        case zone
        /// `met`: a database notification.
        case database

        /// The key of the kind dictionary in `ck`.
        var key: String {
            switch self {
            case .query: "qry"
            case .zone: "fet"
            case .database: "met"
            }
        }
    }

    /// The value of one slot.
    private enum Value {
        case text(String)
        case integer(Int64)
        case texts([String])
        /// An object whose members are written in the given order in the APNs payload
        /// (`af`), keys unique.
        case members([(key: String, value: JSONValue)])
    }

    /// One slot: its value and the size of its encoding, or an upper bound of it until
    /// ``measure()`` (0 when absent).
    private struct Entry {
        var value: Value?
        var size = 0
    }

    let kind: Kind
    private var entries: [Entry]
    /// Whether the sizes are exact (after ``measure()``) rather than upper bounds.
    private(set) var isMeasured = false

    /// An empty payload of one kind.
    init(kind: Kind) {
        self.kind = kind
        entries = Array(repeating: Entry(), count: PayloadSlot.allCases.count)
    }

    /// The text of a string slot.
    func text(of slot: PayloadSlot) -> String? {
        if case .text(let text)? = entries[slot.rawValue].value { return text }
        return nil
    }

    /// Whether a slot has a value.
    func has(_ slot: PayloadSlot) -> Bool {
        entries[slot.rawValue].size > 0
    }

    /// The encoded size of a slot's value, 0 when absent.
    func encodedSize(of slot: PayloadSlot) -> Int {
        entries[slot.rawValue].size
    }

    /// Removes a slot's value.
    mutating func remove(_ slot: PayloadSlot) {
        entries[slot.rawValue] = Entry()
    }

    /// Sets an integer slot.
    mutating func set(_ slot: PayloadSlot, integer: Int64) {
        entries[slot.rawValue] = Entry(value: .integer(integer), size: JSONWriter.integerSize(integer))
    }

    /// Sets a string slot when the text is non-nil.
    mutating func set(_ slot: PayloadSlot, text: String?) {
        guard let text else { return }
        entries[slot.rawValue] = Entry(value: .text(text), size: size(of: text))
    }

    /// The exact size of a text once measured, else an upper bound (`\u00xx` for every byte).
    private func size(of text: String) -> Int {
        isMeasured ? JSONWriter.stringSize(text) : 2 + 6 * text.utf8.count
    }

    /// Replaces every upper bound by the exact size.
    mutating func measure() {
        guard !isMeasured else { return }
        isMeasured = true
        for index in entries.indices {
            switch entries[index].value {
            case .text(let text)?: entries[index].size = JSONWriter.stringSize(text)
            case .texts(let texts)?: entries[index].size = texts.reduce(1 + texts.count) { $0 + JSONWriter.stringSize($1) }
            default: break
            }
        }
    }

    /// Sets an object slot whose members are written in the given order (`af`: the
    /// subscription's order of desired keys; keys unique), when there is at least one member.
    mutating func set(_ slot: PayloadSlot, orderedMembers members: [(key: String, value: JSONValue)]) {
        guard !members.isEmpty else { return }
        var size = 1 + members.count
        for member in members { size += JSONWriter.stringSize(member.key) + 1 + JSONWriter.size(of: member.value) }
        entries[slot.rawValue] = Entry(value: .members(members), size: size)
    }

    /// Sets a string-array slot when the array is non-empty.
    mutating func set(_ slot: PayloadSlot, texts: [String]) {
        guard !texts.isEmpty else { return }
        let total = texts.reduce(1 + texts.count) { $0 + size(of: $1) }
        entries[slot.rawValue] = Entry(value: .texts(texts), size: total)
    }

    /// Whether the alert is written as a plain string: the body is its only key.
    var alertIsPlainBody: Bool {
        guard has(.body) else { return false }
        for raw in PayloadSlot.alertSlots where raw != PayloadSlot.body.rawValue && entries[raw].size > 0 {
            return false
        }
        return true
    }

    private var hasAlert: Bool {
        for raw in PayloadSlot.alertSlots where entries[raw].size > 0 { return true }
        return false
    }

    private var hasKindMembers: Bool {
        for raw in PayloadSlot.kindSlots where entries[raw].size > 0 { return true }
        return false
    }

    /// Whether APNs would show something: an alert, a badge or a sound.
    var isVisible: Bool {
        hasAlert || has(.badge) || has(.sound)
    }

    /// The size of the encoded payload in bytes (either order), or an upper bound of it
    /// until ``measure()``: a sum over the keys, nothing is encoded.
    var encodedSize: Int {
        // {"aps":{ … },"ck":{ … }}
        var size = 8 + 8 + 2
        func members(_ slots: Range<Int>) -> (size: Int, count: Int) {
            var size = 0
            var count = 0
            for raw in slots where entries[raw].size > 0 {
                size += PayloadSlot(rawValue: raw)!.key.utf8.count + 3 + entries[raw].size
                count += 1
            }
            return (size, count)
        }
        var apsCount = 0
        if alertIsPlainBody {
            size += 8 + entries[PayloadSlot.body.rawValue].size
            apsCount += 1
        } else {
            let alert = members(PayloadSlot.alertSlots)
            if alert.count > 0 {
                size += 8 + 1 + alert.size + alert.count - 1 + 1
                apsCount += 1
            }
        }
        let aps = members(PayloadSlot.apsSlots)
        apsCount += aps.count
        size += aps.size + max(apsCount - 1, 0)
        var ck = members(PayloadSlot.ckSlots)
        let kindMembers = members(PayloadSlot.kindSlots)
        if kindMembers.count > 0 {
            ck.size += kind.key.utf8.count + 3 + 1 + kindMembers.size + kindMembers.count - 1 + 1
            ck.count += 1
        }
        size += ck.size + max(ck.count - 1, 0)
        return size
    }

    /// The payload as sent to APNs (keys in ``PayloadSlot`` order, `af` in the
    /// subscription's order), and as `WireCodec` writes it as a value (every object's keys
    /// sorted), for `APNsPush(encodedPayload:)`. Each value is escaped once: the sorted
    /// encoding copies the values' bytes from the APNs one (only `af` is written again).
    ///
    /// - Parameter maxBytes: the limit the payload was fitted into (caps the buffer reserved
    ///   while sizes are upper bounds).
    func encodings(maxBytes: Int) -> (apns: [UInt8], sorted: [UInt8]) {
        let size = encodedSize
        var pass = Pass(writer: JSONWriter(capacity: min(size, maxBytes)), sorted: false,
                        ranges: Array(repeating: 0..<0, count: entries.count), source: [])
        writeForAPNs(&pass)
        let apns = pass.writer.bytes
        assert(isMeasured ? apns.count == size : apns.count <= size, "PushPayload: sized \(size) bytes, wrote \(apns.count)")
        pass = Pass(writer: JSONWriter(capacity: apns.count), sorted: true, ranges: pass.ranges, source: apns)
        writeSorted(&pass)
        assert(pass.writer.count == apns.count, "PushPayload: wrote \(apns.count) then \(pass.writer.count) bytes")
        return (apns, pass.writer.bytes)
    }

    /// One writing pass: in APNs order, noting where each slot's value went, or in sorted
    /// order, copying those values from the APNs bytes.
    private struct Pass {
        var writer: JSONWriter
        let sorted: Bool
        /// By slot: the value's bytes in the APNs encoding.
        var ranges: [Range<Int>]
        /// The APNs encoding (in the sorted pass).
        let source: [UInt8]

        /// Writes a slot's value as the APNs pass wrote it.
        mutating func copy(_ slot: Int) {
            let range = ranges[slot]
            let source = source
            source.withUnsafeBufferPointer { writer.encoded(UnsafeBufferPointer(rebasing: $0[range])) }
        }
    }

    /// Writes one slot as a member when it has a value.
    private func member(_ slot: PayloadSlot, _ pass: inout Pass) {
        guard let value = entries[slot.rawValue].value else { return }
        pass.writer.plainKey(slot.key)
        if pass.sorted {
            if case .members(let members) = value {
                pass.writer.beginObject()
                for index in members.indices.sorted(by: { JSONWriter.precedes(members[$0].key, members[$1].key) }) {
                    pass.writer.key(members[index].key)
                    pass.writer.valueOrNull(members[index].value)
                }
                pass.writer.endObject()
            } else {
                pass.copy(slot.rawValue)
            }
            return
        }
        let start = pass.writer.count
        switch value {
        case .text(let text): pass.writer.string(text)
        case .integer(let number): pass.writer.integer(number)
        case .texts(let texts): pass.writer.strings(texts)
        case .members(let members):
            pass.writer.beginObject()
            for member in members {
                pass.writer.key(member.key)
                pass.writer.valueOrNull(member.value)
            }
            pass.writer.endObject()
        }
        pass.ranges[slot.rawValue] = start..<pass.writer.count
    }

    private func writeForAPNs(_ pass: inout Pass) {
        pass.writer.beginObject()
        writeAPS(PayloadSlot.allCases[PayloadSlot.alertSlots], PayloadSlot.allCases[PayloadSlot.apsSlots], &pass)
        pass.writer.key("ck")
        pass.writer.beginObject()
        for slot in PayloadSlot.allCases[PayloadSlot.ckSlots] { member(slot, &pass) }
        writeKind(PayloadSlot.allCases[PayloadSlot.kindSlots], &pass)
        pass.writer.endObject()
        pass.writer.endObject()
    }

    private func writeSorted(_ pass: inout Pass) {
        pass.writer.beginObject()
        writeAPS(PayloadSlot.alertSlotsSorted[...], PayloadSlot.apsSlotsSorted[...], &pass)
        pass.writer.key("ck")
        pass.writer.beginObject()
        // ce < cid < ckuserid < fet < met < nid < p < qry
        for slot in [PayloadSlot.ce, .cid, .ckuserid] { member(slot, &pass) }
        if kind != .query { writeKind(PayloadSlot.kindSlotsSorted[...], &pass) }
        member(.nid, &pass)
        member(.pruned, &pass)
        if kind == .query { writeKind(PayloadSlot.kindSlotsSorted[...], &pass) }
        pass.writer.endObject()
        pass.writer.endObject()
    }

    /// `"aps":{…}`: the alert (the body as a plain string when it is the alert's only key)
    /// and the other `aps` slots, each group in the order given.
    private func writeAPS(_ alertSlots: ArraySlice<PayloadSlot>, _ apsSlots: ArraySlice<PayloadSlot>, _ pass: inout Pass) {
        pass.writer.key("aps")
        pass.writer.beginObject()
        if alertIsPlainBody {
            // The member's key is `alert`, its value the body's.
            let body = PayloadSlot.body.rawValue
            pass.writer.key("alert")
            if pass.sorted {
                pass.copy(body)
            } else if let text = text(of: .body) {
                let start = pass.writer.count
                pass.writer.string(text)
                pass.ranges[body] = start..<pass.writer.count
            }
        } else if hasAlert {
            pass.writer.key("alert")
            pass.writer.beginObject()
            for slot in alertSlots { member(slot, &pass) }
            pass.writer.endObject()
        }
        for slot in apsSlots { member(slot, &pass) }
        pass.writer.endObject()
    }

    /// The kind dictionary (`qry`, `fet`, `met`) when it has a member, its slots in the order given.
    private func writeKind(_ slots: ArraySlice<PayloadSlot>, _ pass: inout Pass) {
        guard hasKindMembers else { return }
        pass.writer.plainKey(kind.key)
        pass.writer.beginObject()
        for slot in slots { member(slot, &pass) }
        pass.writer.endObject()
    }
}
