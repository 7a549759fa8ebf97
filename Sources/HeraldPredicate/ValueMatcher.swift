import Foundation
import HeraldModel

/// Compares one scalar record value with a prepared constant.
///
/// Numbers compare across INT64, DOUBLE and TIMESTAMP (milliseconds); booleans count as
/// 1 and 0. Strings compare exactly unless `[c]`/`[d]` folded them. REFERENCE values
/// compare by record name (against a string or a reference), ASSETID values by file checksum.
/// Values of unrelated types are unequal and unordered (every ordering test is false).
enum ValueMatcher {
    /// The string a value compares as, if any.
    @inline(__always)
    static func string(of field: FieldValue) -> String? {
        switch field {
        case .string(let s): s
        case .reference(let r): r.recordName
        case .asset(let a): a.fileChecksum
        default: nil
        }
    }

    static func equals(_ field: FieldValue, _ c: PreparedOperand) -> Bool {
        switch c.value {
        case .null, .list:
            return false
        case .int, .double, .timestamp, .bool:
            return order(field, c) == 0
        case .string, .reference:
            guard let s = string(of: field), let cs = c.string else { return false }
            return StringFolding.foldedMatch(s, c.options, cs, prefixOnly: false)
        case .location(let lat, let lon):
            if case .location(let l) = field { return l.latitude == lat && l.longitude == lon }
            return false
        case .bytes(let d):
            if case .bytes(let b) = field { return b == d }
            return false
        }
    }

    /// -1, 0 or 1; `nil` when the two cannot be ordered.
    static func order(_ field: FieldValue, _ c: PreparedOperand) -> Int? {
        order(field, integer: c.integer, number: c.number, string: c.string, options: c.options)
    }

    /// `order` against element `index` of a list constant, reading the parts it compares in
    /// place: passing `c.elements[index]` copied the whole operand (its value, strings,
    /// pattern, list and sets retained and released), twice per `BETWEEN`.
    static func order(_ field: FieldValue, element index: Int, of c: PreparedOperand) -> Int? {
        order(
            field, integer: c.elements[index].integer, number: c.elements[index].number,
            string: c.elements[index].string, options: c.elements[index].options)
    }

    private static func order(
        _ field: FieldValue, integer: Int64?, number: Double?, string cs: String?, options: Comparison.Options
    ) -> Int? {
        switch field {
        case .int64(let i), .timestamp(let i):
            if let ci = integer { return i < ci ? -1 : (i == ci ? 0 : 1) }
            guard let d = number else { return nil }
            return compare(Double(i), d)
        case .double(let v):
            guard let d = number else { return nil }
            return compare(v, d)
        case .string, .reference, .asset:
            guard let cs, let s = string(of: field) else { return nil }
            let folded = StringFolding.fold(s, options)
            return folded < cs ? -1 : (folded == cs ? 0 : 1)
        default:
            return nil
        }
    }

    @inline(__always)
    private static func compare(_ a: Double, _ b: Double) -> Int? {
        if a < b { return -1 }
        if a > b { return 1 }
        return a == b ? 0 : nil
    }

    /// Whether `field` equals an element of the list constant `c`.
    static func isMember(_ field: FieldValue, _ c: PreparedOperand) -> Bool {
        if let set = c.integerSet {
            switch field {
            case .int64(let i), .timestamp(let i): return set.contains(i)
            case .double(let d):
                guard d.rounded() == d, abs(d) < 9.0e18 else { return false }
                return set.contains(Int64(d))
            default: return false
            }
        }
        if let set = c.stringSet {
            guard let s = string(of: field) else { return false }
            return set.contains(StringFolding.fold(s, c.options))
        }
        return c.elements.contains { equals(field, $0) }
    }

    /// `field op constant` for one scalar value.
    static func test(_ field: FieldValue, _ op: Comparison.Operator, _ c: PreparedOperand) -> Bool {
        switch op {
        case .equal:
            return equals(field, c)
        case .notEqual:
            if case .null = c.value { return true }
            return !equals(field, c)
        case .less:
            return order(field, c).map { $0 < 0 } ?? false
        case .lessOrEqual:
            return order(field, c).map { $0 <= 0 } ?? false
        case .greater:
            return order(field, c).map { $0 > 0 } ?? false
        case .greaterOrEqual:
            return order(field, c).map { $0 >= 0 } ?? false
        case .between:
            guard c.elements.count == 2, let lo = order(field, element: 0, of: c), let hi = order(field, element: 1, of: c) else {
                return false
            }
            return lo >= 0 && hi <= 0
        case .beginsWith:
            guard let s = string(of: field), let cs = c.string else { return false }
            return StringFolding.foldedMatch(s, c.options, cs, prefixOnly: true)
        case .endsWith:
            guard let s = string(of: field), let cs = c.string else { return false }
            return StringFolding.fold(s, c.options).hasSuffix(cs)
        case .contains:
            guard let s = string(of: field) else { return equals(field, c) }
            guard let cs = c.string else { return false }
            return cs.isEmpty || ByteSearch.contains(StringFolding.fold(s, c.options), cs)
        case .like:
            guard let s = string(of: field), let pattern = c.like else { return false }
            return pattern.matches(StringFolding.fold(s, c.options))
        case .in:
            if case .list = c.value {
                return isMember(field, c)
            }
            guard let s = string(of: field), let cs = c.string else { return false }
            return cs.contains(StringFolding.fold(s, c.options))
        }
    }
}
