extension JSONDocument {
    /// The bytes of a container node when they are exactly what `JSONWriter.value` writes
    /// for the value they hold (compact, object keys unique and in UTF-8 byte order, strings
    /// without escapes or control characters, numbers plain integers of at most 18 digits);
    /// `nil` otherwise, also for scalars.
    ///
    /// Lets a reader keep a value's bytes instead of building a `JSONValue` tree and writing
    /// it again (the push stage's APNs payloads: composed by `JSONWriter`, so canonical). The
    /// check is conservative: an escape anywhere, a fraction or an exponent sends the caller
    /// to the tree, which stays the reference (`FastCodecPropertyTests` compares both).
    public func canonicalBytes(_ node: Int) -> ArraySlice<UInt8>? {
        let item = nodes[node]
        guard item.kind == .object || item.kind == .array else { return nil }
        let start = Int(item.start)
        guard let end = canonicalEnd(node, at: start) else { return nil }
        return bytes[start..<end]
    }

    /// The value node of the first member named `key` of object `node` (Foundation keeps the
    /// first of duplicates; canonical objects have one); `nil` for a non-object.
    public func member(_ key: StaticString, of node: Int) -> Int? {
        guard nodes[node].kind == .object else { return nil }
        var index = node + 1
        for _ in 0..<nodes[node].count {
            if textEquals(index, key) { return index + 1 }
            index = Int(nodes[index + 1].next)
        }
        return nil
    }

    /// Whether a number node's text is exactly the decimal integer `value` (as written).
    public func isInteger(_ node: Int, text value: StaticString) -> Bool {
        nodes[node].kind == .number && textEquals(node, value)
    }

    /// The end of node's bytes when they start exactly at `position` and are canonical.
    private func canonicalEnd(_ node: Int, at position: Int) -> Int? {
        let item = nodes[node]
        guard position < bytes.count else { return nil }
        switch item.kind {
        case .null: return bytes[position] == UInt8(ascii: "n") ? position + 4 : nil
        case .true: return bytes[position] == UInt8(ascii: "t") ? position + 4 : nil
        case .false: return bytes[position] == UInt8(ascii: "f") ? position + 5 : nil
        case .number:
            guard Int(item.start) == position, isPlainInteger(node) else { return nil }
            return Int(item.end)
        case .string:
            guard Int(item.start) == position + 1, isPlainText(node) else { return nil }
            return Int(item.end) + 1
        case .array, .object:
            guard Int(item.start) == position else { return nil }
            let isObject = item.kind == .object
            var cursor = position + 1
            var index = node + 1
            var previousKey: Int?
            for element in 0..<Int(item.count) {
                if element > 0 {
                    guard cursor < bytes.count, bytes[cursor] == UInt8(ascii: ",") else { return nil }
                    cursor += 1
                }
                if isObject {
                    guard let keyEnd = canonicalEnd(index, at: cursor) else { return nil }
                    if let previousKey, !precedes(previousKey, index) { return nil }
                    previousKey = index
                    guard keyEnd < bytes.count, bytes[keyEnd] == UInt8(ascii: ":") else { return nil }
                    cursor = keyEnd + 1
                    index += 1
                }
                guard let end = canonicalEnd(index, at: cursor) else { return nil }
                cursor = end
                index = Int(nodes[index].next)
            }
            let close = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
            guard cursor < bytes.count, bytes[cursor] == close, cursor + 1 == Int(item.end) else { return nil }
            return cursor + 1
        }
    }

    /// `-?[1-9][0-9]{0,17}` or `0`: what `JSONWriter.integer` writes for the value it reads as.
    private func isPlainInteger(_ node: Int) -> Bool {
        var index = Int(nodes[node].start)
        let end = Int(nodes[node].end)
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        let digits = end - index
        guard digits >= 1, digits <= 18 else { return false }
        if bytes[index] == UInt8(ascii: "0") { return digits == 1 && !negative }
        for position in index..<end where !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) { return false }
        return true
    }

    /// A string without escapes or control characters, valid UTF-8: `JSONWriter.string`
    /// writes its text back as these bytes.
    private func isPlainText(_ node: Int) -> Bool {
        let item = nodes[node]
        guard !item.escaped else { return false }
        var ascii = true
        for position in Int(item.start)..<Int(item.end) {
            let byte = bytes[position]
            if byte < 0x20 { return false }
            if byte >= 0x80 { ascii = false }
        }
        return ascii || text(node) != nil
    }

    /// Whether plain string `left` sorts strictly before plain string `right` by bytes.
    private func precedes(_ left: Int, _ right: Int) -> Bool {
        let l = bytes[Int(nodes[left].start)..<Int(nodes[left].end)]
        let r = bytes[Int(nodes[right].start)..<Int(nodes[right].end)]
        return l.lexicographicallyPrecedes(r)
    }
}
