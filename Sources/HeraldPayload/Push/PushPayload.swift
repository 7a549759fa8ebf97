import HeraldModel

/// An APNs payload (`aps` + `ck`, docs/cloudkit-behaviour.md §5) under construction: the value of every
/// key and its encoded size, measured once, so that the payload's size is a sum while
/// pruning, and the bytes are written once, into memory of exactly that size.
///
/// Key order is fixed (see ``PayloadSlot``); `af` members follow the subscription's
/// `desiredKeys` order; objects inside values are written with their keys sorted.
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

    /// One slot: its value and the size of its encoding (0 when absent), and for an
    /// object whose members keep a given order, its encoding.
    private struct Entry {
        var value: JSONValue?
        var size = 0
        var encoded: [UInt8]?
    }

    let kind: Kind
    private var entries: [Entry]

    /// An empty payload of one kind.
    init(kind: Kind) {
        self.kind = kind
        entries = Array(repeating: Entry(), count: PayloadSlot.allCases.count)
    }

    /// The value of a slot.
    subscript(slot: PayloadSlot) -> JSONValue? {
        entries[slot.rawValue].value
    }

    /// Whether a slot has a value.
    func has(_ slot: PayloadSlot) -> Bool {
        entries[slot.rawValue].size > 0
    }

    /// The encoded size of a slot's value, 0 when absent.
    func encodedSize(of slot: PayloadSlot) -> Int {
        entries[slot.rawValue].size
    }

    /// Sets (or with `nil` removes) a slot's value.
    mutating func set(_ slot: PayloadSlot, _ value: JSONValue?) {
        entries[slot.rawValue] = Entry(value: value, size: value.map(JSONWriter.size(of:)) ?? 0)
    }

    /// Sets a string slot when the text is non-nil.
    mutating func set(_ slot: PayloadSlot, text: String?) {
        guard let text else { return }
        entries[slot.rawValue] = Entry(value: .string(text), size: JSONWriter.stringSize(text))
    }

    /// Sets an object slot whose members are written in the given order (`af`: the
    /// subscription's order of desired keys), when there is at least one member.
    mutating func set(_ slot: PayloadSlot, orderedMembers members: [(key: String, value: JSONValue)]) {
        guard !members.isEmpty else { return }
        var size = 1 + members.count
        for member in members { size += JSONWriter.stringSize(member.key) + 1 + JSONWriter.size(of: member.value) }
        let encoded = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            var writer = JSONWriter(buffer)
            writer.raw("{")
            for (index, member) in members.enumerated() {
                if index > 0 { writer.raw(",") }
                writer.string(member.key)
                writer.raw(":")
                writer.value(member.value)
            }
            writer.raw("}")
            count = buffer.baseAddress.map { writer.written(since: $0) } ?? 0
            precondition(count == size, "PushPayload: measured \(size) bytes, wrote \(count)")
        }
        var object: [String: JSONValue] = [:]
        object.reserveCapacity(members.count)
        for member in members where object[member.key] == nil { object[member.key] = member.value }
        entries[slot.rawValue] = Entry(value: .object(object), size: size, encoded: encoded)
    }

    /// Sets a string-array slot when the array is non-empty.
    mutating func set(_ slot: PayloadSlot, texts: [String]) {
        guard !texts.isEmpty else { return }
        let size = texts.reduce(1 + texts.count) { $0 + JSONWriter.stringSize($1) }
        entries[slot.rawValue] = Entry(value: .array(texts.map(JSONValue.string)), size: size)
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

    /// The size of the encoded payload in bytes: a sum over the keys, nothing is encoded.
    var encodedSize: Int {
        // {"aps":{ … },"ck":{ … }}
        var size = 8 + 8 + 2
        func members(_ slots: Range<Int>) -> (size: Int, count: Int) {
            var size = 0
            var count = 0
            for raw in slots where entries[raw].size > 0 {
                size += JSONWriter.memberKeySize(PayloadSlot(rawValue: raw)!.key) + entries[raw].size
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
            ck.size += JSONWriter.memberKeySize(kind.key) + 1 + kindMembers.size + kindMembers.count - 1 + 1
            ck.count += 1
        }
        size += ck.size + max(ck.count - 1, 0)
        return size
    }

    /// The encoded payload: measured first, then written once into an array of that size.
    func encoded() -> [UInt8] {
        let size = encodedSize
        return [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            var writer = JSONWriter(buffer)
            write(to: &writer)
            count = buffer.baseAddress.map { writer.written(since: $0) } ?? 0
            precondition(count == size, "PushPayload: measured \(size) bytes, wrote \(count)")
        }
    }

    private func write(to writer: inout JSONWriter) {
        func member(_ raw: Int, _ first: inout Bool) {
            guard let value = entries[raw].value else { return }
            if !first { writer.raw(",") }
            first = false
            writer.memberKey(PayloadSlot(rawValue: raw)!.key)
            if let encoded = entries[raw].encoded {
                encoded.withUnsafeBufferPointer { writer.raw($0) }
            } else {
                writer.value(value)
            }
        }
        writer.raw(#"{"aps":{"#)
        var first = true
        if alertIsPlainBody, let body = entries[PayloadSlot.body.rawValue].value {
            writer.raw(#""alert":"#)
            writer.value(body)
            first = false
        } else if hasAlert {
            writer.raw(#""alert":{"#)
            var inner = true
            for raw in PayloadSlot.alertSlots { member(raw, &inner) }
            writer.raw("}")
            first = false
        }
        for raw in PayloadSlot.apsSlots { member(raw, &first) }
        writer.raw(#"},"ck":{"#)
        first = true
        for raw in PayloadSlot.ckSlots { member(raw, &first) }
        if hasKindMembers {
            if !first { writer.raw(",") }
            writer.memberKey(kind.key)
            writer.raw("{")
            var inner = true
            for raw in PayloadSlot.kindSlots { member(raw, &inner) }
            writer.raw("}")
        }
        writer.raw("}}")
    }

    /// The payload as a `JSONValue` (for `APNsPush.payload`), same content as `encoded()`.
    var jsonValue: JSONValue {
        func members(_ slots: Range<Int>, extra: Int = 0) -> [String: JSONValue] {
            var result: [String: JSONValue] = [:]
            result.reserveCapacity(slots.count + extra)
            for raw in slots {
                if let value = entries[raw].value { result[PayloadSlot(rawValue: raw)!.key] = value }
            }
            return result
        }
        var aps = members(PayloadSlot.apsSlots, extra: 1)
        if alertIsPlainBody {
            aps["alert"] = entries[PayloadSlot.body.rawValue].value
        } else if hasAlert {
            aps["alert"] = .object(members(PayloadSlot.alertSlots))
        }
        var ck = members(PayloadSlot.ckSlots, extra: 1)
        if hasKindMembers { ck[kind.key] = .object(members(PayloadSlot.kindSlots)) }
        return .object(["aps": .object(aps), "ck": .object(ck)])
    }
}
