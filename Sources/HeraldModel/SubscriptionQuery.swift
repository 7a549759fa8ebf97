/// What a query subscription watches: a record type and either an NSPredicate format
/// string with its arguments or a Web Services `filterBy` list. Neither means every
/// record of the type (`TRUEPREDICATE`).
public struct SubscriptionQuery: Sendable, Hashable, Codable {
    public var recordType: String
    /// NSPredicate format string (docs/cloudkit-behaviour.md §2); parsed by `HeraldPredicate`.
    public var predicate: String?
    /// Values for `%@` / `%K` in order: plain JSON values or typed `{value, type}` objects,
    /// kept generic here and interpreted by `HeraldPredicate`.
    public var arguments: [JSONValue]?
    /// The Web Services filter list, instead of `predicate`.
    public var filterBy: [QueryFilter]?

    /// Creates a query.
    public init(recordType: String, predicate: String? = nil, arguments: [JSONValue]? = nil, filterBy: [QueryFilter]? = nil) {
        self.recordType = recordType
        self.predicate = predicate
        self.arguments = arguments
        self.filterBy = filterBy
    }

    private enum CodingKeys: String, CodingKey { case recordType, predicate, arguments, filterBy }

    /// Decodes and validates: `recordType` and `predicate` non-empty; `predicate` and
    /// `filterBy` exclusive; `arguments` only with `predicate`.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        recordType = try c.decodeNonEmpty(.recordType)
        predicate = try c.decodeNonEmptyIfPresent(.predicate)
        arguments = try c.decodeIfPresent([JSONValue].self, forKey: .arguments)
        filterBy = try c.decodeIfPresent([QueryFilter].self, forKey: .filterBy)
        if predicate != nil, filterBy != nil {
            throw c.error(.invalidValue, "give either predicate or filterBy, not both", at: .filterBy)
        }
        if arguments != nil, predicate == nil {
            throw c.error(.invalidValue, "arguments need a predicate", at: .arguments)
        }
    }
}
