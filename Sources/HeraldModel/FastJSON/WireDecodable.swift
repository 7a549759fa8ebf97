/// A wire type with a fast reader over a scanned `JSONDocument` besides its Codable
/// initializer. `WireCodec.decode` prefers it; it accepts and rejects the same documents
/// as the Codable initializer, with errors of the same code at the same path
/// (`FastCodecPropertyTests` holds the two to that).
public protocol WireDecodable: Decodable {
    /// Reads the value at `node` of `document`.
    /// - Throws: `ModelError` with a path relative to `node`.
    init(wire document: JSONDocument, at node: Int) throws(ModelError)
}

/// A wire type with a fast writer besides its Codable `encode(to:)`. `WireCodec.encode`
/// prefers it; the bytes are identical to the Codable ones (sorted keys, slashes unescaped).
public protocol WireEncodable: Encodable {
    /// Appends the value's JSON to `writer`.
    /// - Throws: `ModelError` (`encodingFailed`) for what JSON cannot hold.
    func write(to writer: inout JSONWriter) throws(ModelError)

    /// About how many bytes the value's JSON takes: the buffer `WireCodec.encode` starts
    /// with (a buffer that grows copies what was written). Default 512.
    var wireSizeHint: Int { get }
}

extension WireEncodable {
    /// 512 bytes.
    public var wireSizeHint: Int { 512 }
}
