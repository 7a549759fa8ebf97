import Foundation

/// A typed CloudKit field value (reference §3, CloudKit Web Services record format).
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

/// A zone: its name and the user record name of its owner.
public struct ZoneID: Sendable, Hashable, Codable {
    public static let defaultZoneName = "_defaultZone"

    public var zoneName: String
    public var ownerRecordName: String

    public init(zoneName: String, ownerRecordName: String) {
        self.zoneName = zoneName
        self.ownerRecordName = ownerRecordName
    }

    public var isDefaultZone: Bool { zoneName == ZoneID.defaultZoneName }
}

/// A REFERENCE field: points at another record by name.
public struct RecordReference: Sendable, Hashable {
    /// What happens to the referring record when the target is deleted.
    public enum Action: String, Sendable, Hashable, Codable {
        case none = "NONE"
        case deleteSelf = "DELETE_SELF"
    }

    public var recordName: String
    public var zoneID: ZoneID?
    public var action: Action

    public init(recordName: String, zoneID: ZoneID? = nil, action: Action = .none) {
        self.recordName = recordName
        self.zoneID = zoneID
        self.action = action
    }
}

/// A LOCATION field. Degrees for coordinates, metres for accuracy and altitude,
/// metres per second for speed, degrees for course, milliseconds since 1970 for timestamp.
public struct Location: Sendable, Hashable {
    public var latitude: Double
    public var longitude: Double
    public var horizontalAccuracy: Double?
    public var verticalAccuracy: Double?
    public var altitude: Double?
    public var speed: Double?
    public var course: Double?
    public var timestamp: Int64?

    public init(
        latitude: Double, longitude: Double,
        horizontalAccuracy: Double? = nil, verticalAccuracy: Double? = nil,
        altitude: Double? = nil, speed: Double? = nil, course: Double? = nil, timestamp: Int64? = nil
    ) {
        self.latitude = latitude
        self.longitude = longitude
        self.horizontalAccuracy = horizontalAccuracy
        self.verticalAccuracy = verticalAccuracy
        self.altitude = altitude
        self.speed = speed
        self.course = course
        self.timestamp = timestamp
    }
}

/// An ASSETID field: a reference to stored file data, identified by its checksum.
public struct AssetReference: Sendable, Hashable {
    public var fileChecksum: String
    public var size: Int64
    public var referenceChecksum: String?
    public var wrappingKey: String?
    public var receipt: String?
    public var downloadURL: String?

    public init(
        fileChecksum: String, size: Int64, referenceChecksum: String? = nil,
        wrappingKey: String? = nil, receipt: String? = nil, downloadURL: String? = nil
    ) {
        self.fileChecksum = fileChecksum
        self.size = size
        self.referenceChecksum = referenceChecksum
        self.wrappingKey = wrappingKey
        self.receipt = receipt
        self.downloadURL = downloadURL
    }
}
