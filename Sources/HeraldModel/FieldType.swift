/// The wire name of a CloudKit field type. A closed set: unknown names are decode errors.
public enum FieldType: String, Sendable, Hashable, CaseIterable, Codable {
    case string = "STRING"
    case int64 = "INT64"
    case double = "DOUBLE"
    case timestamp = "TIMESTAMP"
    case bytes = "BYTES"
    case reference = "REFERENCE"
    case location = "LOCATION"
    case assetID = "ASSETID"
    case stringList = "STRING_LIST"
    case int64List = "INT64_LIST"
    case doubleList = "DOUBLE_LIST"
    case timestampList = "TIMESTAMP_LIST"
    case bytesList = "BYTES_LIST"
    case referenceList = "REFERENCE_LIST"
    case locationList = "LOCATION_LIST"
    case assetIDList = "ASSETID_LIST"

    /// The element type of a list type, `nil` for scalar types.
    public var elementType: FieldType? {
        switch self {
        case .stringList: .string
        case .int64List: .int64
        case .doubleList: .double
        case .timestampList: .timestamp
        case .bytesList: .bytes
        case .referenceList: .reference
        case .locationList: .location
        case .assetIDList: .assetID
        default: nil
        }
    }

    /// The list type whose elements are of this scalar type, `nil` for list types.
    public var listType: FieldType? {
        FieldType.allCases.first { $0.elementType == self }
    }

    public var isList: Bool { elementType != nil }
}
