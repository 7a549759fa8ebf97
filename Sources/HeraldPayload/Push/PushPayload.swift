import HeraldModel

/// An APNs payload (`aps` + `ck`, docs/cloudkit-behaviour.md §5) under construction: the value of every
/// key and its encoded size, measured once, so that the payload's size is a sum while
/// pruning, and the bytes are written once, into a buffer reserved at that size.
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

    /// One slot: its value and the size of its encoding (0 when absent).
    private struct Entry {
        var value: Value?
        var size = 0
    }

    let kind: Kind
    private var entries: [Entry]

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
        entries[slot.rawValue] = Entry(value: .text(text), size: JSONWriter.stringSize(text))
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
        let size = texts.reduce(1 + texts.count) { $0 + JSONWriter.stringSize($1) }
        entries[slot.rawValue] = Entry(value: .texts(texts), size: size)
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

    /// The size of the encoded payload in bytes (either order): a sum over the keys,
    /// nothing is encoded.
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

    /// The payload as sent to APNs: keys in ``PayloadSlot`` order, `af` in the
    /// subscription's order.
    func encoded() -> [UInt8] {
        written { payload, writer in payload.writeForAPNs(to: &writer) }
    }

    /// The payload as `WireCodec` writes it as a value (every object's keys sorted), for
    /// `APNsPush(encodedPayload:)`.
    func canonicalEncoded() -> [UInt8] {
        written { payload, writer in payload.writeCanonical(to: &writer) }
    }

    private func written(_ body: (PushPayload, inout JSONWriter) -> Void) -> [UInt8] {
        let size = encodedSize
        var writer = JSONWriter(capacity: size)
        body(self, &writer)
        assert(writer.bytes.count == size, "PushPayload: measured \(size) bytes, wrote \(writer.bytes.count)")
        return writer.bytes
    }

    /// Writes one slot as a member when it has a value.
    private func member(_ slot: PayloadSlot, sorted: Bool, _ writer: inout JSONWriter) {
        guard let value = entries[slot.rawValue].value else { return }
        writer.plainKey(slot.key)
        switch value {
        case .text(let text): writer.string(text)
        case .integer(let number): writer.integer(number)
        case .texts(let texts): writer.strings(texts)
        case .members(let members):
            writer.beginObject()
            if sorted {
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
    }

    private func writeForAPNs(to writer: inout JSONWriter) {
        writer.beginObject()
        writeAPS(alertSlots: PayloadSlot.allCases[PayloadSlot.alertSlots],
                 apsSlots: PayloadSlot.allCases[PayloadSlot.apsSlots], sorted: false, &writer)
        writer.key("ck")
        writer.beginObject()
        for slot in PayloadSlot.allCases[PayloadSlot.ckSlots] { member(slot, sorted: false, &writer) }
        writeKind(PayloadSlot.allCases[PayloadSlot.kindSlots], sorted: false, &writer)
        writer.endObject()
        writer.endObject()
    }

    private func writeCanonical(to writer: inout JSONWriter) {
        writer.beginObject()
        writeAPS(alertSlots: PayloadSlot.alertSlotsSorted[...], apsSlots: PayloadSlot.apsSlotsSorted[...], sorted: true,
                 &writer)
        writer.key("ck")
        writer.beginObject()
        // ce < cid < ckuserid < fet < met < nid < p < qry
        for slot in [PayloadSlot.ce, .cid, .ckuserid] { member(slot, sorted: true, &writer) }
        if kind != .query { writeKind(PayloadSlot.kindSlotsSorted[...], sorted: true, &writer) }
        member(.nid, sorted: true, &writer)
        member(.pruned, sorted: true, &writer)
        if kind == .query { writeKind(PayloadSlot.kindSlotsSorted[...], sorted: true, &writer) }
        writer.endObject()
        writer.endObject()
    }

    /// `"aps":{…}`: the alert (a plain string when the body is its only key) and the other
    /// `aps` slots, each group in the order given.
    private func writeAPS(
        alertSlots: ArraySlice<PayloadSlot>, apsSlots: ArraySlice<PayloadSlot>, sorted: Bool, _ writer: inout JSONWriter
    ) {
        writer.key("aps")
        writer.beginObject()
        if alertIsPlainBody, let body = text(of: .body) {
            writer.key("alert")
            writer.string(body)
        } else if hasAlert {
            writer.key("alert")
            writer.beginObject()
            for slot in alertSlots { member(slot, sorted: sorted, &writer) }
            writer.endObject()
        }
        for slot in apsSlots { member(slot, sorted: sorted, &writer) }
        writer.endObject()
    }

    /// The kind dictionary (`qry`, `fet`, `met`) when it has a member, its slots in the order given.
    private func writeKind(_ slots: ArraySlice<PayloadSlot>, sorted: Bool, _ writer: inout JSONWriter) {
        guard hasKindMembers else { return }
        writer.plainKey(kind.key)
        writer.beginObject()
        for slot in slots { member(slot, sorted: sorted, &writer) }
        writer.endObject()
    }
}
