import HeraldModel

extension PushPayload {
    /// Makes the payload fit in `limit` bytes, CloudKit's way (docs/cloudkit-behaviour.md §5).
    ///
    /// When it already fits nothing changes. Otherwise `ck.p` is set to `1` and the fields
    /// of ``PayloadField`` are visited in order, least important first, skipping absent
    /// ones, until the payload fits: a free text (subtitle, title, body) is shortened just
    /// enough, at a grapheme boundary and in UTF-8 bytes as written, ending with `…`;
    /// when not even one character of it fits, or for any other field, the field is
    /// dropped. Sizes are recomputed from the values' cached encodings (a sum over the
    /// keys), never by encoding the payload again.
    ///
    /// - Returns: what was dropped or shortened, in order.
    /// - Throws: `payload.tooLarge` when even `{"aps":{},"ck":{"nid":…,"p":1}}` exceeds `limit`.
    mutating func fit(into limit: Int) throws(PayloadError) -> [PruningStep] {
        // Within the limit even by the upper bounds: nothing to measure.
        guard encodedSize > limit else { return [] }
        measure()
        var size = encodedSize
        guard size > limit else { return [] }
        set(.pruned, integer: 1)
        var steps: [PruningStep] = []
        for field in PayloadField.allCases {
            let present = field.slots.filter(has)
            guard !present.isEmpty else { continue }
            size = encodedSize
            if size <= limit { break }
            if field.isShortenable, let slot = present.first, let text = text(of: slot) {
                let budget = encodedSize(of: slot) - (size - limit)
                if let shorter = text.shortened(toJSONBytes: budget) {
                    set(slot, text: shorter)
                    steps.append(.shortened(field))
                    continue
                }
            }
            for slot in present { remove(slot) }
            steps.append(.dropped(field))
        }
        size = encodedSize
        guard size <= limit else {
            throw PayloadError(
                .payloadTooLarge,
                "even the smallest payload (aps and the notification ID) takes \(size) bytes, more than the limit of \(limit)")
        }
        return steps
    }
}
