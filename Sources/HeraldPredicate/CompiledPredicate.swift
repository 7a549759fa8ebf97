import HeraldModel

/// A predicate compiled for fast, repeated evaluation.
///
/// Compilation resolves keys (metadata or field), prepares constants (numbers converted,
/// strings folded, LIKE patterns split, token sets built) and builds a tree of closures, so
/// evaluation does no parsing and, for the common `key op constant` shapes, no allocation
/// beyond what `[c]`/`[d]` folding or tokenizing record text needs. Immutable and `Sendable`:
/// share one instance across tasks.
///
/// Semantics:
/// - a comparison on a missing field (or missing metadata) is false, whatever the operator
///   or modifier (`x != 1` is false when `x` is missing); `x == NULL` is true exactly when
///   `x` is missing and `x != NULL` when it is present;
/// - `NOT` is plain negation, as in NSPredicate: `NOT (x == 1)` is true when `x` is missing;
/// - a list field with no modifier: `CONTAINS` is membership, `IN` is true when any element
///   is in the right-hand list, `==`/`!=` compare whole lists; other operators are false;
/// - `ANY`/`ALL`/`NONE` on a scalar field treat it as a one-element list; `ALL` of an empty
///   list is true and `NONE` of an empty list is true;
/// - distances are great-circle kilometres; for a LOCATION_LIST any element may match;
/// - numbers compare across INT64, DOUBLE and TIMESTAMP (milliseconds), booleans count as
///   1/0; REFERENCE values compare by record name (with a string or a reference), ASSETID
///   values by file checksum; strings compare exactly unless `[c]`/`[d]` is given; values
///   of unrelated types are unequal and unordered;
/// - a key path (`a.b`) names nothing on a flat record, so it is always missing;
/// - metadata keys win over fields of the same name.
public struct CompiledPredicate: Sendable {
    typealias Test = @Sendable (PredicateRecord) -> Bool
    typealias Getter = @Sendable (PredicateRecord) -> FieldValue?

    private let body: Test

    /// Compiles a syntax tree.
    public init(_ node: PredicateNode) {
        body = Self.compile(node)
    }

    /// Whether `record` matches.
    @inline(__always)
    public func evaluate(_ record: PredicateRecord) -> Bool {
        body(record)
    }

    static func compile(_ node: PredicateNode) -> Test {
        switch node {
        case .constant(let b):
            return { _ in b }
        case .and(let children):
            let tests = children.map(compile)
            if tests.count == 2 {
                let a = tests[0], b = tests[1]
                return { a($0) && b($0) }
            }
            return { r in
                for t in tests where !t(r) { return false }
                return true
            }
        case .or(let children, _):
            let tests = children.map(compile)
            return { r in
                for t in tests where t(r) { return true }
                return false
            }
        case .not(let inner, _):
            let t = compile(inner)
            return { !t($0) }
        case .comparison(let c):
            return compile(c)
        case .tokens(let search):
            return compile(search)
        }
    }

    static func getter(_ key: PredicateKey) -> Getter {
        let access = KeyAccess(key)
        return { access.read($0) }
    }

    static func compile(_ c: Comparison) -> Test {
        switch (c.left, c.right) {
        case (.key(let key), .constant(let value)):
            // Read in place (no getter closure): one object less per comparison to allocate,
            // and to miss in cache when a candidate is evaluated.
            let get = KeyAccess(key)
            let op = c.op
            let modifier = c.modifier
            if case .null = value, modifier == .direct, op == .equal || op == .notEqual {
                let wantMissing = op == .equal
                return { (get.read($0) == nil) == wantMissing }
            }
            let operand = PreparedOperand(value, options: c.options, forLike: op == .like)
            return { r in
                guard let field = get.read(r) else { return false }
                return apply(modifier, field, op, operand)
            }
        case (.distance(let key, let lat, let lon), .constant(let radius)):
            let get = KeyAccess(key)
            let op = c.op
            let operand = PreparedOperand(radius, options: [])
            return { r in
                guard let field = get.read(r) else { return false }
                return withinDistance(field, latitude: lat, longitude: lon, op, operand)
            }
        default:
            // Rare shapes (key against key, a constant that could not be moved right):
            // resolve both sides per evaluation.
            let left = resolver(c.left)
            let right = resolver(c.right)
            let op = c.op
            let modifier = c.modifier
            let options = c.options
            return { r in
                guard let l = left(r), let rv = right(r) else { return false }
                let operand = PreparedOperand(PredicateValue(rv), options: options, forLike: op == .like)
                return apply(modifier, l, op, operand)
            }
        }
    }

    /// A side of a comparison as a record value (constants are converted).
    static func resolver(_ e: PredicateOperand) -> Getter {
        switch e {
        case .key(let k):
            return getter(k)
        case .constant(let v):
            let field = v.fieldValue
            return { _ in field }
        case .evaluatedObject, .distance:
            return { _ in nil }
        }
    }

    static func apply(_ modifier: Comparison.Modifier, _ field: FieldValue, _ op: Comparison.Operator, _ c: PreparedOperand) -> Bool {
        switch modifier {
        case .direct:
            guard case .list(let items, _) = field else {
                return ValueMatcher.test(field, op, c)
            }
            switch op {
            case .contains:
                return items.contains { ValueMatcher.equals($0, c) }
            case .in:
                return items.contains { ValueMatcher.test($0, .in, c) }
            case .equal, .notEqual:
                guard case .list = c.value else { return false }
                let same = items.count == c.elements.count
                    && zip(items, c.elements).allSatisfy { ValueMatcher.equals($0, $1) }
                return same == (op == .equal)
            default:
                return false
            }
        case .any:
            if case .list(let items, _) = field { return items.contains { ValueMatcher.test($0, op, c) } }
            return ValueMatcher.test(field, op, c)
        case .all:
            if case .list(let items, _) = field { return items.allSatisfy { ValueMatcher.test($0, op, c) } }
            return ValueMatcher.test(field, op, c)
        case .none:
            if case .list(let items, _) = field { return !items.contains { ValueMatcher.test($0, op, c) } }
            return !ValueMatcher.test(field, op, c)
        }
    }

    static func withinDistance(_ field: FieldValue, latitude: Double, longitude: Double, _ op: Comparison.Operator, _ radius: PreparedOperand) -> Bool {
        switch field {
        case .location(let l):
            let km = GreatCircle.kilometres(latitude: l.latitude, longitude: l.longitude, latitude: latitude, longitude: longitude)
            return ValueMatcher.test(.double(km), op, radius)
        case .list(let items, _):
            return items.contains { withinDistance($0, latitude: latitude, longitude: longitude, op, radius) }
        default:
            return false
        }
    }

    static func compile(_ search: TokenSearch) -> Test {
        let wanted = Set(search.tokens)
        guard !wanted.isEmpty else { return { _ in false } }
        // Lengths in UTF-8 bytes, for the ASCII fast path.
        let lengths = Set(search.tokens.map(\.utf8.count))
        let maxLength = lengths.max() ?? 0
        @Sendable func matches(_ value: FieldValue) -> Bool {
            switch value {
            case .string(let s):
                return FullTextTokenizer.containsAny(of: wanted, lengths: lengths, maxLength: maxLength, in: s)
            case .list(let items, .string):
                return items.contains(where: matches)
            default:
                return false
            }
        }
        if let field = search.field {
            let get = KeyAccess(field)
            return { r in get.read(r).map(matches) ?? false }
        }
        return { r in r.fields.values.contains(where: matches) }
    }
}

/// How a compiled comparison reads its key from a record: a value kept inside the
/// comparison's closure, not a closure of its own.
private enum KeyAccess: Sendable {
    case field(String)
    case metadata(MetadataKey)
    /// A key path (a.b) has no meaning on a flat record: always missing.
    case missing

    init(_ key: PredicateKey) {
        if let meta = key.metadata {
            self = .metadata(meta)
        } else if key.components.count == 1 {
            self = .field(key.components[0])
        } else {
            self = .missing
        }
    }

    @inline(__always)
    func read(_ record: PredicateRecord) -> FieldValue? {
        switch self {
        case .field(let name): record.fields[name]
        case .metadata(let meta): record.value(of: meta)
        case .missing: nil
        }
    }
}

extension PredicateValue {
    /// The record value a constant stands for (used when a constant is compared like a field).
    var fieldValue: FieldValue? {
        switch self {
        case .null: nil
        case .bool(let b): .int64(b ? 1 : 0)
        case .int(let i): .int64(i)
        case .double(let d): .double(d)
        case .string(let s): .string(s)
        case .timestamp(let t): .timestamp(t)
        case .reference(let n): .reference(RecordReference(recordName: n))
        case .location(let lat, let lon): .location(Location(latitude: lat, longitude: lon))
        case .bytes(let d): .bytes(d)
        case .list(let items):
            .list(items.compactMap(\.fieldValue), of: items.first?.fieldValue?.type ?? .string)
        }
    }
}
