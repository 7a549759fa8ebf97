import HeraldModel
import HeraldPredicate

/// The keys a record offers to a probe: what a subscription filed under that probe would
/// have to be filed under to match the record.
enum RecordKeys {
    static func forEach(_ probe: Probe, of fields: [String: FieldValue], _ body: (IndexKey) -> Void) {
        guard let field = probe.field else {
            // An all-fields token search reads every STRING and STRING_LIST field.
            for value in fields.values { tokens(of: value, body) }
            return
        }
        guard let value = fields[field] else { return }
        forEach(probe, of: value, body)
    }

    /// The keys the value of the probe's field offers to it.
    static func forEach(_ probe: Probe, of value: FieldValue, _ body: (IndexKey) -> Void) {
        switch probe.kind {
        case .value:
            IndexKey.forEachKey(of: value, folding: probe.options, body)
        case .prefix, .suffix, .gram:
            IndexKey.forEachString(of: value, folding: probe.options) { forEachKey(probe, ofFolded: $0, body) }
        case .token:
            tokens(of: value, body)
        case .cell:
            locations(of: value) { body(GeoCells.cell(latitude: $0.latitude, longitude: $0.longitude, level: probe.length)) }
        }
    }

    /// The prefix, suffix or run keys of one already folded string.
    static func forEachKey(_ probe: Probe, ofFolded text: String, _ body: (IndexKey) -> Void) {
        switch probe.kind {
        case .prefix: if let head = SimpleText.prefix(text, probe.length) { body(.string(head)) }
        case .suffix: if let tail = SimpleText.suffix(text, probe.length) { body(.string(tail)) }
        case .gram: Grams.forEach(in: text, length: probe.length) { body(.string($0)) }
        case .value, .token, .cell: break
        }
    }

    /// Calls `body` with the posting hash (probe `number`) of every search token of `value`
    /// (a string or a list of strings): ASCII text is hashed from its bytes without a string
    /// per token (`PostingHasher.forEachASCIIToken`); other text through `TokenSearch`.
    static func forEachTokenHash(
        of value: FieldValue, number: Int32, hasher: PostingHasher, _ body: (UInt64) -> Void
    ) {
        switch value {
        case .string(let text):
            if !hasher.forEachASCIIToken(number, of: text, body) {
                TokenSearch.forEachToken(in: text) { body(hasher.hash(number, string: $0)) }
            }
        case .list(let items, .string):
            for item in items { forEachTokenHash(of: item, number: number, hasher: hasher, body) }
        default: break
        }
    }

    private static func tokens(of value: FieldValue, _ body: (IndexKey) -> Void) {
        switch value {
        case .string(let text): TokenSearch.forEachToken(in: text) { body(.string($0)) }
        case .list(let items, .string): for item in items { tokens(of: item, body) }
        default: break
        }
    }

    private static func locations(of value: FieldValue, _ body: (Location) -> Void) {
        switch value {
        case .location(let location): body(location)
        case .list(let items, _): for item in items { locations(of: item, body) }
        default: break
        }
    }
}
