import HeraldModel

/// The record a predicate is evaluated against: its fields and system metadata.
///
/// Timestamps are milliseconds since 1970, like TIMESTAMP fields; `createdBy` and
/// `modifiedBy` are user record names.
public struct PredicateRecord: Sendable, Hashable {
    /// The record's name (metadata key `recordName`).
    public var recordName: String
    /// The record type, for callers that keep it with the record (not used by predicates).
    public var recordType: String?
    /// The record's fields by name.
    public var fields: [String: FieldValue]
    /// Creation time in ms since 1970 (metadata key `creationDate`).
    public var creationDate: Int64?
    /// Last modification time in ms since 1970 (metadata key `modificationDate`).
    public var modificationDate: Int64?
    /// Creator's user record name (metadata key `createdBy`).
    public var createdBy: String?
    /// Last modifier's user record name (metadata key `modifiedBy`).
    public var modifiedBy: String?

    /// Creates a record.
    public init(
        recordName: String, recordType: String? = nil, fields: [String: FieldValue] = [:],
        creationDate: Int64? = nil, modificationDate: Int64? = nil,
        createdBy: String? = nil, modifiedBy: String? = nil
    ) {
        self.recordName = recordName
        self.recordType = recordType
        self.fields = fields
        self.creationDate = creationDate
        self.modificationDate = modificationDate
        self.createdBy = createdBy
        self.modifiedBy = modifiedBy
    }

    /// The value of a metadata key, `nil` when the record does not carry it.
    public func value(of key: MetadataKey) -> FieldValue? {
        switch key {
        case .recordName: .string(recordName)
        case .creationDate: creationDate.map(FieldValue.timestamp)
        case .modificationDate: modificationDate.map(FieldValue.timestamp)
        case .createdBy: createdBy.map { .reference(RecordReference(recordName: $0)) }
        case .modifiedBy: modifiedBy.map { .reference(RecordReference(recordName: $0)) }
        }
    }
}
