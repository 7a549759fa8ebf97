/// A CLDR plural category, as used for the keys of stringsdict and String Catalog plural
/// forms.
public enum PluralCategory: String, Sendable, Hashable, CaseIterable, Comparable, Codable {
    /// CLDR's six category names; every language has `other`.
    case zero, one, two, few, many, other

    /// CLDR order (zero, one, two, few, many, other).
    public static func < (lhs: PluralCategory, rhs: PluralCategory) -> Bool {
        lhs.order < rhs.order
    }

    private var order: Int {
        switch self {
        case .zero: 0
        case .one: 1
        case .two: 2
        case .few: 3
        case .many: 4
        case .other: 5
        }
    }
}
