import Foundation
import HeraldModel

/// A constant operand prepared once for fast comparisons: numbers as Int64/Double,
/// strings pre-folded for the comparison's options, LIKE patterns pre-split.
struct PreparedOperand: Sendable {
    let value: PredicateValue
    let options: Comparison.Options
    /// The string form (STRING, or a REFERENCE's record name), folded per `options`.
    let string: String?
    let integer: Int64?
    let number: Double?
    let like: LikePattern?
    /// Elements of a list constant, each prepared.
    let elements: [PreparedOperand]
    /// For a list of strings/references: the folded strings, for O(1) membership.
    let stringSet: Set<String>?
    /// For a list of INT64s/timestamps: the integers, for O(1) membership.
    let integerSet: Set<Int64>?

    init(_ value: PredicateValue, options: Comparison.Options, forLike: Bool = false) {
        self.value = value
        self.options = options
        switch value {
        case .string(let s), .reference(let s):
            let folded = StringFolding.fold(s, options)
            string = folded
            like = forLike ? LikePattern(folded) : nil
        default:
            string = nil
            like = nil
        }
        switch value {
        case .int(let i), .timestamp(let i): integer = i; number = Double(i)
        case .double(let d): integer = nil; number = d
        case .bool(let b): integer = b ? 1 : 0; number = b ? 1 : 0
        default: integer = nil; number = nil
        }
        if case .list(let items) = value {
            elements = items.map { PreparedOperand($0, options: options, forLike: forLike) }
        } else {
            elements = []
        }
        if elements.count > 2, elements.allSatisfy({ $0.string != nil }) {
            stringSet = Set(elements.compactMap(\.string))
        } else {
            stringSet = nil
        }
        if elements.count > 2, elements.allSatisfy({ if case .int = $0.value { true } else if case .timestamp = $0.value { true } else { false } }) {
            integerSet = Set(elements.compactMap(\.integer))
        } else {
            integerSet = nil
        }
    }
}

/// Case and diacritic folding for `[c]`, `[d]`, `[cd]`; cheap for ASCII.
enum StringFolding {
    /// Whether `s`, folded per `options`, equals (or, with `prefixOnly`, starts with) the
    /// already-folded `folded`, without building the folded string when the bytes compared
    /// are ASCII. Anything else (a non-ASCII byte, a possible combining mark at the prefix
    /// boundary) takes the exact path through `fold`.
    static func foldedMatch(_ s: String, _ options: Comparison.Options, _ folded: String, prefixOnly: Bool) -> Bool {
        if options.isEmpty { return prefixOnly ? s.hasPrefix(folded) : s == folded }
        let lower = options.contains(.caseInsensitive)
        let fast: Bool? = s.utf8.withContiguousStorageIfAvailable { a -> Bool? in
            folded.utf8.withContiguousStorageIfAvailable { b -> Bool? in
                let common = min(a.count, b.count)
                for i in 0..<common {
                    var x = a[i]
                    let y = b[i]
                    if x >= 0x80 || y >= 0x80 { return nil }
                    if lower, x >= 65, x <= 90 { x += 32 }
                    if x != y { return false }
                }
                if a.count < b.count { return false } // every byte of `s` was ASCII: folded it is shorter
                if a.count == b.count { return true }
                // `s` is longer: a prefix when the next character starts with an ASCII byte;
                // never equal when it is ASCII (ASCII never folds away).
                if a[b.count] >= 0x80 { return nil }
                return prefixOnly
            } ?? nil
        } ?? nil
        if let fast { return fast }
        let f = fold(s, options)
        return prefixOnly ? f.hasPrefix(folded) : f == folded
    }

    static func fold(_ s: String, _ options: Comparison.Options) -> String {
        if options.isEmpty { return s }
        if s.utf8.allSatisfy({ $0 < 0x80 }) {
            return options.contains(.caseInsensitive) ? s.lowercased() : s
        }
        var foundation: String.CompareOptions = []
        if options.contains(.caseInsensitive) { foundation.insert(.caseInsensitive) }
        if options.contains(.diacriticInsensitive) { foundation.insert(.diacriticInsensitive) }
        return s.folding(options: foundation, locale: nil)
    }
}
