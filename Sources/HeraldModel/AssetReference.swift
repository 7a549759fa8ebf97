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
