/// A record system field usable as a key: CloudKit's metadata keys.
///
/// Metadata keys take precedence over record fields of the same name.
public enum MetadataKey: String, Sendable, Hashable, CaseIterable {
    /// The record's name (a string).
    case recordName
    /// When the record was created (a timestamp).
    case creationDate
    /// When the record was last modified (a timestamp).
    case modificationDate
    /// The user record name of the creator (a reference).
    case createdBy
    /// The user record name of the last modifier (a reference).
    case modifiedBy

    /// Recognizes the canonical name and the aliases used by CloudKit APIs
    /// (`recordID`, `creatorUserRecordID`, `lastModifiedUserRecordID`, and the Web Services
    /// system fields `___recordID`, `___createTime`, `___modTime`, `___createdBy`, `___modifiedBy`).
    public init?(name: String) {
        switch name {
        case "recordName", "recordID", "___recordID": self = .recordName
        case "creationDate", "___createTime": self = .creationDate
        case "modificationDate", "___modTime": self = .modificationDate
        case "createdBy", "creatorUserRecordID", "___createdBy": self = .createdBy
        case "modifiedBy", "lastModifiedUserRecordID", "___modifiedBy": self = .modifiedBy
        default: return nil
        }
    }
}
