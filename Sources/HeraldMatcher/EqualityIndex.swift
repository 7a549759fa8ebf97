import HeraldModel
import HeraldPredicate

/// The selective part of query predicates: subscriptions whose predicate requires
/// `field == constant` or `field IN {constants}` (case- and diacritic-sensitive) are found by
/// hashing the record's value of that field; every other subscription is a residual that is
/// always a candidate. Candidates are then checked with the whole predicate.
struct EqualityIndex: Sendable {
    /// Where a subscription is filed: a field and the keys that can satisfy it.
    struct Placement: Sendable, Hashable {
        var field: String
        var keys: [IndexKey]
    }

    private var byField: [String: [IndexKey: Set<String>]] = [:]
    private var residual: Set<String> = []
    private var placements: [String: Placement] = [:]

    var isEmpty: Bool { placements.isEmpty && residual.isEmpty }

    /// The most selective equality or membership conjunct of a predicate, if any.
    static func placement(for predicate: RecordPredicate) -> Placement? {
        var best: Placement?
        for conjunct in predicate.conjuncts {
            let candidate: Placement?
            switch conjunct.constraint {
            case .equal(let field, let value, let options) where options.isEmpty:
                candidate = IndexKey(value).map { Placement(field: field, keys: [$0]) }
            case .member(let field, let values, let options) where options.isEmpty && !values.isEmpty:
                let keys = values.compactMap(IndexKey.init)
                candidate = keys.count == values.count ? Placement(field: field, keys: keys) : nil
            default:
                candidate = nil
            }
            // Metadata keys (recordName, createdBy…) are not record fields: never hash them.
            guard let candidate, MetadataKey(rawValue: candidate.field) == nil else { continue }
            if best == nil || candidate.keys.count < best!.keys.count { best = candidate }
        }
        return best
    }

    mutating func insert(_ key: String, placement: Placement?) {
        remove(key)
        guard let placement else {
            residual.insert(key)
            return
        }
        placements[key] = placement
        for indexKey in placement.keys { byField[placement.field, default: [:]][indexKey, default: []].insert(key) }
    }

    mutating func remove(_ key: String) {
        residual.remove(key)
        guard let placement = placements.removeValue(forKey: key) else { return }
        for indexKey in placement.keys {
            byField[placement.field]?[indexKey]?.remove(key)
            if byField[placement.field]?[indexKey]?.isEmpty == true { byField[placement.field]?[indexKey] = nil }
        }
        if byField[placement.field]?.isEmpty == true { byField[placement.field] = nil }
    }

    /// Subscriptions that may match a record with these fields (now or before the change).
    func candidates(_ fields: [String: FieldValue], previous: [String: FieldValue]?) -> Set<String> {
        var result = residual
        for (field, keyed) in byField {
            for record in [fields, previous ?? [:]] {
                guard let value = record[field] else { continue }
                for indexKey in IndexKey.keys(of: value) {
                    if let keys = keyed[indexKey] { result.formUnion(keys) }
                }
            }
        }
        return result
    }
}
