/// A number-dependent piece of a localized string: a stringsdict variable
/// (`NSStringPluralRuleType`), a String Catalog substitution, or a catalog's top-level
/// plural variation.
public struct PluralVariable: Sendable, Hashable {
    /// The variable's name (`files` for `%#@files@`).
    public var name: String
    /// The specifier of the number without `%` (`d`, `ld`, `lld`, `.1f`, `@`), from
    /// `NSStringFormatValueTypeKey` or the substitution's `formatSpecifier`. A precision
    /// on a floating-point type selects the form from the number *as formatted* (`%.1f` of
    /// 1 is `1.0`, which is `other` in English, as CLDR prescribes).
    public var valueType: String
    /// The 1-based argument that selects the form, when fixed (a catalog substitution's
    /// `argNum`, or a top-level catalog plural). `nil`: the argument the `%#@name@`
    /// specifier consumes.
    public var argumentNumber: Int?
    /// The text for each category; `other` is always present.
    public var forms: [PluralCategory: String]

    /// Creates a variable.
    public init(name: String, valueType: String, argumentNumber: Int? = nil, forms: [PluralCategory: String]) {
        self.name = name
        self.valueType = valueType
        self.argumentNumber = argumentNumber
        self.forms = forms
    }
}
