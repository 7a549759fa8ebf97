/// One entry of a Web Services `filterBy` list: `{comparator, fieldName, fieldValue, distance?}`.
/// The entries of a list are ANDed.
public struct QueryFilter: Sendable, Hashable, Codable {
    public var comparator: FilterComparator
    public var fieldName: String
    /// The value to compare with, in the `{value, type}` form.
    public var fieldValue: FieldValue
    /// For `NEAR`: the radius in metres (docs/cloudkit-behaviour.md §2, Decision).
    public var distance: Double?

    /// Creates a filter.
    public init(comparator: FilterComparator, fieldName: String, fieldValue: FieldValue, distance: Double? = nil) {
        self.comparator = comparator
        self.fieldName = fieldName
        self.fieldValue = fieldValue
        self.distance = distance
    }

    private enum CodingKeys: String, CodingKey { case comparator, fieldName, fieldValue, distance }

    /// Decodes and validates: `fieldName` non-empty; `NEAR` needs a LOCATION value and a
    /// non-negative `distance`.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        comparator = try c.decode(FilterComparator.self, forKey: .comparator)
        fieldName = try c.decodeNonEmpty(.fieldName)
        fieldValue = try c.decode(FieldValue.self, forKey: .fieldValue)
        distance = try c.decodeIfPresent(Double.self, forKey: .distance)
        if comparator == .near {
            guard case .location = fieldValue else {
                throw c.error(.invalidValue, "NEAR compares with a LOCATION, got \(fieldValue.type.rawValue)", at: .fieldValue)
            }
            guard let distance else { throw c.error(.missingValue, "NEAR needs a distance in metres", at: .distance) }
            guard distance >= 0 else {
                throw c.error(.invalidValue, "distance must not be negative, got \(distance)", at: .distance)
            }
        }
    }
}
