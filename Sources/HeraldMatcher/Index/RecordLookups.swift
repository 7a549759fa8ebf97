import HeraldPredicate

/// What one query bucket asks of a record, by field name: each field's lookups and range
/// index, so a record reads each of its fields once, in one pass, whatever the number of
/// probes on it (Quamina and Event Ruler likewise resolve an event's fields once and run
/// each through the automaton of the patterns on that field).
///
/// The lookups are plain values in one flat array — no strings, arrays or other references
/// per lookup — so the walk of a change retains and copies nothing per lookup (copying the
/// probe, its field name and its lengths for every step was a tenth of a change's cost).
/// Rebuilt by `QueryIndex` when a probe comes into or goes out of use, or a field gets its
/// first range. An immutable class: the walk of a change takes it with one retain (as a
/// struct of six arrays, copying it out of the bucket and releasing it was ~340
/// instructions a change).
final class RecordLookups: Sendable {
    /// One lookup of a field's value.
    struct Lookup: Sendable {
        var kind: Probe.Kind
        /// The folding of string values (`[c]`/`[d]`).
        var options: Comparison.Options
        /// The first prefix, suffix or run lookup of its field with these options: the
        /// field's strings are folded here (when they are not `SimpleText`).
        var folds: Bool
        /// The probe's hash number (`PostingHasher`).
        var number: Int32
        /// The cell level of a cell lookup, else 0.
        var level: Int
        /// Prefix, suffix or run lengths in use, ascending: a range of `RecordLookups.lengths`.
        var lengths: Range<Int>
    }

    /// A field's lookups (a range of `lookups`) and its range index in the bucket (-1: none).
    struct Field: Sendable {
        var lookups: Range<Int> = 0..<0
        var rangeIndex = -1
    }

    let fields: FieldNameTable<Field>
    let lookups: [Lookup]
    let lengths: [Int]
    /// The probe number of an all-fields token search in use: it reads every STRING and
    /// STRING_LIST field of the record.
    let everyField: Int32?

    convenience init() {
        self.init(steps: [], rangeIndexes: [:])
    }

    /// - Parameters:
    ///   - steps: each probe group in use with its number and lengths, grouped by field and
    ///     sorted by folding within a field (`QueryIndex`'s order).
    ///   - rangeIndexes: the position of each field's range index.
    init(steps: [(probe: Probe, number: Int32, lengths: [Int])], rangeIndexes: [String: Int]) {
        var byField: [String: [Lookup]] = [:]
        var allLengths: [Int] = []
        var everyField: Int32?
        for (probe, number, lengths) in steps {
            guard let field = probe.field else {
                everyField = number
                continue
            }
            let start = allLengths.count
            if probe.kind == .prefix || probe.kind == .suffix || probe.kind == .gram { allLengths += lengths }
            let previous = byField[field]?.last { $0.kind == .prefix || $0.kind == .suffix || $0.kind == .gram }
            let lookup = Lookup(
                kind: probe.kind, options: probe.options, folds: previous?.options != probe.options, number: number,
                level: probe.kind == .cell ? probe.length : 0, lengths: start..<allLengths.count)
            byField[field, default: []].append(lookup)
        }
        var byName: [String: Field] = [:]
        var allLookups: [Lookup] = []
        for (field, lookups) in byField {
            byName[field, default: Field()].lookups = allLookups.count..<(allLookups.count + lookups.count)
            allLookups += lookups
        }
        for (field, position) in rangeIndexes { byName[field, default: Field()].rangeIndex = position }
        var fields = FieldNameTable<Field>()
        for (name, field) in byName { fields.set(field, for: name) }
        self.fields = fields
        self.lookups = allLookups
        self.lengths = allLengths
        self.everyField = everyField
    }
}
