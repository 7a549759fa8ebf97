import HeraldModel

/// How record values enter a push payload (docs/cloudkit-behaviour.md §4): one rendering per field type.
///
/// | type | localization argument (`loc-args`, server rendering) | desired key (`af`, `recordFields`) |
/// |---|---|---|
/// | STRING | the string | the string |
/// | INT64 | `.integer` (`%@` prints it in decimal) | a JSON integer |
/// | DOUBLE | `.double` (`%@`: shortest round-trip form, `3`, `2.5`, `1e+20`) | a JSON number (not NaN or infinite: those are left out) |
/// | TIMESTAMP | `.timestamp` (`%@`: ISO 8601 UTC, `2026-11-22T02:34:16Z`, `.SSS` only when the milliseconds are not 0) | a JSON integer, milliseconds since 1970 (the Web Services form) |
/// | REFERENCE | the target's record name | the target's record name (as CloudKit's captures show) |
/// | LOCATION | `"latitude,longitude"` in shortest round-trip form (`37.33,-122.03`) | `{"latitude": …, "longitude": …}` |
/// | lists | the elements' argument texts joined with `", "` | a JSON array of the elements' values |
/// | ASSETID, BYTES and their lists | never (`nil`) | never (`nil`) |
///
/// Every string that results (a string, a record name, a location or list text, each
/// string element of a list) is cut to `maxCharacters` characters at a grapheme-cluster
/// boundary — never a broken emoji or invalid UTF-8.
extension FieldValue {
    /// The value as a localization argument, or `nil` for assets and bytes.
    public func localizationArgument(maxCharacters: Int = PayloadLimits.standardValueCharacters) -> FormatArgument? {
        switch self {
        case .string(let text): .string(text.cut(toCharacters: maxCharacters))
        case .int64(let number): .integer(number)
        case .double(let number): .double(number)
        case .timestamp(let milliseconds): .timestamp(milliseconds)
        case .reference(let reference): .string(reference.recordName.cut(toCharacters: maxCharacters))
        case .location(let location): .string(Self.text(of: location).cut(toCharacters: maxCharacters))
        case .bytes, .asset: nil
        case .list(let elements, let elementType):
            if elementType == .bytes || elementType == .assetID { nil }
            else {
                .string(elements.lazy.compactMap { $0.localizationArgument(maxCharacters: maxCharacters)?.text }
                    .joined(separator: ", ").cut(toCharacters: maxCharacters))
            }
        }
    }

    /// The value as a desired key's JSON value, or `nil` for assets, bytes and
    /// non-finite doubles (which JSON cannot hold).
    public func desiredKeyValue(maxCharacters: Int = PayloadLimits.standardValueCharacters) -> JSONValue? {
        switch self {
        case .string(let text): .string(text.cut(toCharacters: maxCharacters))
        case .int64(let number), .timestamp(let number): .integer(number)
        case .double(let number): number.isFinite ? .double(number) : nil
        case .reference(let reference): .string(reference.recordName.cut(toCharacters: maxCharacters))
        case .location(let location):
            location.latitude.isFinite && location.longitude.isFinite
                ? .object(["latitude": .double(location.latitude), "longitude": .double(location.longitude)]) : nil
        case .bytes, .asset: nil
        case .list(let elements, let elementType):
            if elementType == .bytes || elementType == .assetID { nil }
            else { .array(elements.compactMap { $0.desiredKeyValue(maxCharacters: maxCharacters) }) }
        }
    }

    /// Whether this type can ever enter a payload (everything but assets, bytes and their lists).
    public var isPayloadType: Bool {
        switch type {
        case .assetID, .bytes, .assetIDList, .bytesList: false
        default: true
        }
    }

    static func text(of location: Location) -> String {
        FormatArgument.double(location.latitude).text + "," + FormatArgument.double(location.longitude).text
    }
}

extension RecordChange {
    /// The value a localization argument, desired key or collapse ID key named `name`
    /// takes: the record's field, else one of the record's metadata — `recordName`
    /// (STRING), `createdBy` and `modifiedBy` (REFERENCE to the user record),
    /// `creationDate` and `modificationDate` (TIMESTAMP; the modification date is the
    /// change's timestamp) — else `nil`.
    public func payloadValue(named name: String) -> FieldValue? {
        if let value = fields[name] { return value }
        switch name {
        case "recordName": return .string(recordName)
        case "createdBy": return createdBy.map { .reference(RecordReference(recordName: $0)) }
        case "modifiedBy": return modifiedBy.map { .reference(RecordReference(recordName: $0)) }
        case "creationDate": return creationDate.map(FieldValue.timestamp)
        case "modificationDate": return .timestamp(timestamp)
        default: return nil
        }
    }
}
