import HeraldModel
import HeraldPredicate

/// A hashable stand-in for a value under the evaluator's equality: numbers compare across
/// INT64, DOUBLE and TIMESTAMP (and booleans as 1/0), references and assets by name.
/// Equal values always get equal keys, so an index built on keys never misses a match;
/// it may offer extra candidates (e.g. large integers that share a Double), which the
/// predicate then rejects.
enum IndexKey: Hashable, Sendable {
    case string(String)
    case number(Double)

    /// The key of a predicate constant under `[c]`/`[d]` folding, `nil` for values equality
    /// never hashes (locations, bytes, NULL, NaN, lists).
    init?(_ value: PredicateValue, folding options: Comparison.Options = []) {
        switch value {
        case .string(let text), .reference(let text): self = .string(options.fold(text))
        case .int(let integer): self = .number(Double(integer))
        case .timestamp(let milliseconds): self = .number(Double(milliseconds))
        case .bool(let flag): self = .number(flag ? 1 : 0)
        case .double(let number):
            guard !number.isNaN else { return nil }
            self = .number(number)
        default: return nil
        }
    }

    /// Calls `body` with the key of a record value, one per element for a list; strings
    /// (and reference names, asset checksums) folded per `options`.
    static func forEachKey(of field: FieldValue, folding options: Comparison.Options, _ body: (IndexKey) -> Void) {
        switch field {
        case .string(let text): body(.string(options.fold(text)))
        case .reference(let reference): body(.string(options.fold(reference.recordName)))
        case .asset(let asset): body(.string(options.fold(asset.fileChecksum)))
        case .int64(let integer), .timestamp(let integer): body(.number(Double(integer)))
        case .double(let number): if !number.isNaN { body(.number(number)) }
        case .list(let items, _): for item in items { forEachKey(of: item, folding: options, body) }
        case .bytes, .location: break
        }
    }

    /// Calls `body` with every string a string operator compares for this value (strings,
    /// reference names, asset checksums, and those inside lists), folded per `options`.
    static func forEachString(of field: FieldValue, folding options: Comparison.Options, _ body: (String) -> Void) {
        switch field {
        case .string(let text): body(options.fold(text))
        case .reference(let reference): body(options.fold(reference.recordName))
        case .asset(let asset): body(options.fold(asset.fileChecksum))
        case .list(let items, _): for item in items { forEachString(of: item, folding: options, body) }
        default: break
        }
    }

    /// Calls `body` with every number a range compares for this value (lists included).
    static func forEachNumber(of field: FieldValue, _ body: (Double) -> Void) {
        switch field {
        case .int64(let integer), .timestamp(let integer): body(Double(integer))
        case .double(let number): if !number.isNaN { body(number) }
        case .list(let items, _): for item in items { forEachNumber(of: item, body) }
        default: break
        }
    }
}
