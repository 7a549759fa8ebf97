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

    /// The key of a predicate constant, `nil` for values equality never hashes (locations,
    /// bytes, NULL, NaN, lists).
    init?(_ value: PredicateValue) {
        switch value {
        case .string(let text), .reference(let text): self = .string(text)
        case .int(let integer): self = .number(Double(integer))
        case .timestamp(let milliseconds): self = .number(Double(milliseconds))
        case .bool(let flag): self = .number(flag ? 1 : 0)
        case .double(let number):
            guard !number.isNaN else { return nil }
            self = .number(number)
        default: return nil
        }
    }

    /// The keys a record field offers: one for a scalar, one per element for a list.
    static func keys(of field: FieldValue) -> [IndexKey] {
        switch field {
        case .string(let text): [.string(text)]
        case .reference(let reference): [.string(reference.recordName)]
        case .asset(let asset): [.string(asset.fileChecksum)]
        case .int64(let integer), .timestamp(let integer): [.number(Double(integer))]
        case .double(let number): number.isNaN ? [] : [.number(number)]
        case .list(let items, _): items.flatMap(keys)
        case .bytes, .location: []
        }
    }
}
