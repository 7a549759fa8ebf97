/// The Web Services form `{fileChecksum, size, referenceChecksum?, wrappingKey?, receipt?,
/// downloadURL?}`; `fileChecksum` non-empty, `size` a non-negative integer.
extension AssetReference: Codable {
    public init(from decoder: any Decoder) throws {
        try self.init(json: JSONValue(from: decoder), at: decoder.codingPath)
    }

    public func encode(to encoder: any Encoder) throws {
        try jsonValue.encode(to: encoder)
    }

    /// Reads an asset reference from an already decoded JSON value.
    /// - Throws: `ModelError` at `path`.
    public init(json: JSONValue, at path: [any CodingKey]) throws(ModelError) {
        let object = try JSONObjectReader(json, what: "ASSETID", at: path)
        let size = try object.int64("size")
        guard size >= 0 else {
            throw ModelError(.invalidValue, "size must not be negative, got \(size)", at: object.at("size"))
        }
        self.init(
            fileChecksum: try object.string("fileChecksum"), size: size,
            referenceChecksum: try object.optionalString("referenceChecksum"),
            wrappingKey: try object.optionalString("wrappingKey"),
            receipt: try object.optionalString("receipt"),
            downloadURL: try object.optionalString("downloadURL"))
    }

    /// The wire form; absent optional members are omitted.
    public var jsonValue: JSONValue {
        var members: [String: JSONValue] = ["fileChecksum": .string(fileChecksum), "size": .integer(size)]
        let optionals: [(String, String?)] = [
            ("referenceChecksum", referenceChecksum), ("wrappingKey", wrappingKey),
            ("receipt", receipt), ("downloadURL", downloadURL),
        ]
        for (key, value) in optionals { if let value { members[key] = .string(value) } }
        return .object(members)
    }
}
