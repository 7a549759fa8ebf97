import Foundation

/// A typed CloudKit field value (docs/cloudkit-behaviour.md §3, CloudKit Web Services record format).
///
/// Lists carry their element type so that an empty list keeps its type.
/// Timestamps are milliseconds since 1970 (UTC), exactly as on the wire.
public enum FieldValue: Sendable, Hashable {
    case string(String)
    case int64(Int64)
    case double(Double)
    /// Milliseconds since 1970-01-01T00:00:00Z.
    case timestamp(Int64)
    case bytes(Data)
    case reference(RecordReference)
    case location(Location)
    case asset(AssetReference)
    /// A list of scalar values; `of` is the element type (never a list type).
    indirect case list([FieldValue], of: FieldType)

    /// The wire type of this value (`STRING`, `INT64_LIST`, …).
    public var type: FieldType {
        switch self {
        case .string: .string
        case .int64: .int64
        case .double: .double
        case .timestamp: .timestamp
        case .bytes: .bytes
        case .reference: .reference
        case .location: .location
        case .asset: .assetID
        case .list(_, let element): element.listType ?? element
        }
    }
}
