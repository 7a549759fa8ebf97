/// One change to one record, as upstream publishes it on `record-changes` (docs/ARCHITECTURE.md §5.1).
///
/// Keyed by `partitionKey` (`container/database/zoneOwner` in the private and shared
/// databases, `container/public/recordName` in the public one, docs/ARCHITECTURE.md §9) so
/// that every change of a zone owner (of a public record) is seen in order, on the partition
/// that holds the owner's subscriptions. `fields` is the record after the change — for a delete,
/// the last stored version; `previousFields`, when given, is the record before it and
/// enables the enter / leave reasons.
public struct RecordChange: Sendable, Hashable, Codable {
    /// What happened to the record.
    public enum Kind: String, WireEnum {
        case create, update, delete
        public static var wireName: String { "kind" }
    }

    /// Unique ID of this change; with a subscription ID it seeds the notification ID.
    public var changeID: String
    /// The container identifier, e.g. `iCloud.com.example.notes`.
    public var container: String
    public var database: DatabaseScope
    public var zoneID: ZoneID
    public var recordType: String
    public var recordName: String
    public var kind: Kind
    /// The record after the change (for a delete, the last stored version). Absent on the wire = empty.
    public var fields: [String: FieldValue]
    /// The record before the change, when the producer knows it.
    public var previousFields: [String: FieldValue]?
    /// User record name of whoever made the change.
    public var modifiedBy: String?
    /// The device that made the change; it is not notified of it.
    public var originDevice: String?
    /// When the change happened, milliseconds since 1970.
    public var timestamp: Int64
    /// Shared-database changes: the user record names of the zone's participants.
    public var participants: [String]?
    /// Record metadata: user record name of the creator.
    public var createdBy: String?
    /// Record metadata: creation time, milliseconds since 1970.
    public var creationDate: Int64?

    /// Creates a record change.
    public init(
        changeID: String, container: String, database: DatabaseScope, zoneID: ZoneID,
        recordType: String, recordName: String, kind: Kind, fields: [String: FieldValue],
        previousFields: [String: FieldValue]? = nil, modifiedBy: String? = nil, originDevice: String? = nil,
        timestamp: Int64, participants: [String]? = nil, createdBy: String? = nil, creationDate: Int64? = nil
    ) {
        self.changeID = changeID
        self.container = container
        self.database = database
        self.zoneID = zoneID
        self.recordType = recordType
        self.recordName = recordName
        self.kind = kind
        self.fields = fields
        self.previousFields = previousFields
        self.modifiedBy = modifiedBy
        self.originDevice = originDevice
        self.timestamp = timestamp
        self.participants = participants
        self.createdBy = createdBy
        self.creationDate = creationDate
    }

    /// The Kafka key: `container/database/zoneOwner` in the private and shared databases
    /// (every zone of one owner on one partition, with the owner's subscriptions),
    /// `container/public/recordName` in the public database (one zone, spread by record).
    public var partitionKey: String {
        switch database {
        case .private, .shared: "\(container)/\(database.rawValue)/\(zoneID.ownerRecordName)"
        case .public: "\(container)/public/\(recordName)"
        }
    }

    /// The record's zone, `container/database/zoneOwner/zoneName`: the key `record-changes`
    /// had before it was keyed by owner, still what the asset ledger names records by.
    public var zoneKey: String {
        "\(container)/\(database.rawValue)/\(zoneID.ownerRecordName)/\(zoneID.zoneName)"
    }

    /// The changed record's ID.
    public var recordID: RecordID { RecordID(recordName: recordName, zoneID: zoneID) }

    private enum CodingKeys: String, CodingKey {
        case changeID, container, database, zoneID, recordType, recordName, kind, fields, previousFields
        case modifiedBy, originDevice, timestamp, participants, createdBy, creationDate
    }

    /// Decodes and validates: IDs and names non-empty, field names CloudKit-valid,
    /// times non-negative, `participants` only in the shared database.
    /// - Throws: `ModelError` (or `DecodingError`, which `WireCodec` translates) at the offending path.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        changeID = try container.decodeNonEmpty(.changeID)
        self.container = try container.decodeNonEmpty(.container)
        database = try container.decode(DatabaseScope.self, forKey: .database)
        zoneID = try container.decode(ZoneID.self, forKey: .zoneID)
        recordType = try container.decodeNonEmpty(.recordType)
        recordName = try container.decodeNonEmpty(.recordName)
        kind = try container.decode(Kind.self, forKey: .kind)
        fields = try container.contains(.fields) && !container.decodeNil(forKey: .fields)
            ? container.decodeFields(.fields) : [:]
        previousFields = try container.contains(.previousFields) && !container.decodeNil(forKey: .previousFields)
            ? container.decodeFields(.previousFields) : nil
        modifiedBy = try container.decodeNonEmptyIfPresent(.modifiedBy)
        originDevice = try container.decodeNonEmptyIfPresent(.originDevice)
        timestamp = try container.decodeNonNegative(.timestamp)
        participants = try container.decodeNonEmptyStringsIfPresent(.participants)
        if participants != nil, database != .shared {
            throw container.error(.invalidValue, "participants are only allowed in the shared database", at: .participants)
        }
        createdBy = try container.decodeNonEmptyIfPresent(.createdBy)
        creationDate = try container.decodeNonNegativeIfPresent(.creationDate)
    }
}
