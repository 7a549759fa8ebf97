import HeraldModel

extension RecordChange {
    /// The asset ledger's name for the changed record:
    /// `container/database/zoneOwner/zoneName/recordName`.
    public var assetRecordKey: String { "\(zoneKey)/\(recordName)" }

    /// The files the record refers to after the change, from its ASSETID fields and
    /// ASSETID lists: one per checksum (the largest size stated, when a checksum appears
    /// with several), sorted by checksum. A delete refers to nothing, whatever its `fields`.
    public var referencedFiles: [AssetFile] {
        guard kind != .delete else { return [] }
        var sizes: [String: Int64] = [:]
        func note(_ value: FieldValue) {
            switch value {
            case .asset(let reference):
                sizes[reference.fileChecksum] = max(reference.size, sizes[reference.fileChecksum] ?? 0)
            case .list(let elements, of: .assetID):
                elements.forEach(note)
            default:
                break
            }
        }
        fields.values.forEach(note)
        return sizes.map { AssetFile(fileChecksum: $0.key, size: $0.value) }.sorted()
    }
}
