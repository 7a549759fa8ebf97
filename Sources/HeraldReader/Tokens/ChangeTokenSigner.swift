import Crypto
import Foundation

/// Issues and verifies `ChangeToken`s with HMAC-SHA256.
///
/// Layout (version 1): base64url of 33 bytes — version `0x01`, the stream position as a
/// big-endian Int64 (-1 = before the first notification), and the first 24 bytes of
/// HMAC-SHA256(key, "herald.change-token" ‖ version ‖ recipient ‖ container ‖ position),
/// where recipient and container are UTF-8 with a 4-byte big-endian length prefix.
///
/// Version 2 (issued once the signer knows its `epoch`): 37 bytes — version `0x02`, the
/// position, a 4-byte epoch tag (the first bytes of SHA-256 of the epoch) and the MAC, which
/// then also covers the tag. The epoch is the Kafka cluster the store was built from:
/// sequences restart on another cluster, so a position from there means nothing here and
/// such a token is `CHANGE_TOKEN_EXPIRED` (the client fetches from the start) rather than
/// silently skipping the new stream's first notifications. Version 1 tokens stay valid.
///
/// A token issued for another user or container, or altered in any byte, fails
/// verification. A value type with no shared state: use it from any thread.
public struct ChangeTokenSigner: Sendable {
    /// The shortest key accepted, in bytes.
    public static let minimumKeyLength = 32

    static let version: UInt8 = 1
    static let epochVersion: UInt8 = 2
    static let macLength = 24
    static let epochTagLength = 4
    static let tokenLength = 1 + 8 + macLength
    static let epochTokenLength = tokenLength + epochTagLength
    private static let domain = Array("herald.change-token".utf8)

    /// HMAC-SHA256 keyed and fed the domain: copied for every MAC (the hash state is
    /// copy-on-write), so no token pays for deriving the key pads again.
    private let keyedMAC: HMAC<SHA256>
    /// The tag of `epoch`, or nil while the epoch is unknown (version 1 tokens are issued).
    private var epochTag: [UInt8]?

    /// The stream epoch tokens are bound to: the cluster ID the store was built from.
    /// `nil` (the default) issues version 1 tokens and accepts any epoch.
    public var epoch: String? {
        didSet { epochTag = epoch.map { Array(SHA256.hash(data: Array($0.utf8)).prefix(Self.epochTagLength)) } }
    }

    /// A signer using `key`.
    /// - Throws: `ReaderError` (`INVALID_CONFIGURATION`) when the key is shorter than 32 bytes.
    public init(key: SymmetricKey) throws(ReaderError) {
        let length = key.bitCount / 8
        guard length >= Self.minimumKeyLength else {
            throw ReaderError(
                .invalidConfiguration,
                "the change token key must be at least \(Self.minimumKeyLength) bytes, got \(length)",
                operation: "configure change tokens")
        }
        var keyedMAC = HMAC<SHA256>(key: key)
        keyedMAC.update(data: Self.domain)
        self.keyedMAC = keyedMAC
    }

    /// A signer using the raw bytes of `key`.
    /// - Throws: `ReaderError` (`INVALID_CONFIGURATION`) when there are fewer than 32 bytes.
    public init(key: some Sequence<UInt8>) throws(ReaderError) {
        try self.init(key: SymmetricKey(data: Array(key)))
    }

    /// The token for the position just after `sequence` in the stream of `recipient` in
    /// `container`: a fetch with it returns notifications with a greater sequence.
    /// - Parameter sequence: a notification's sequence, or -1 for the very start.
    public func token(recipient: String, container: String, sequence: Int64) -> ChangeToken {
        precondition(sequence >= -1, "a stream position is -1 or a notification sequence")
        let version = epochTag == nil ? Self.version : Self.epochVersion
        var bytes: [UInt8] = [version]
        bytes.append(contentsOf: Self.bigEndian(sequence))
        if let epochTag { bytes.append(contentsOf: epochTag) }
        bytes.append(contentsOf: mac(
            version: version, recipient: recipient, container: container, sequence: sequence, tag: epochTag ?? []))
        return ChangeToken(rawValue: Base64URL.encode(bytes))
    }

    /// The stream position `token` stands for, after checking that it was issued by this
    /// key for `recipient` and `container` and not altered.
    /// - Returns: the sequence of the last notification the token covers (-1 = none).
    /// - Throws: `ReaderError` (`BAD_REQUEST`, reason "invalid change token: …"), or
    ///   `CHANGE_TOKEN_EXPIRED` for a genuine token of another epoch (another cluster).
    public func sequence(of token: ChangeToken, recipient: String, container: String) throws(ReaderError) -> Int64 {
        // The length check first, so a huge string costs nothing to refuse.
        let length = token.rawValue.utf8.count
        guard length == (Self.tokenLength * 4 + 2) / 3 || length == (Self.epochTokenLength * 4 + 2) / 3,
            let bytes = Base64URL.decode(token.rawValue),
            bytes.count == (bytes.first == Self.epochVersion ? Self.epochTokenLength : Self.tokenLength)
        else {
            throw Self.invalid("it is not a change token issued by this server")
        }
        guard bytes[0] == Self.version || bytes[0] == Self.epochVersion else {
            throw Self.invalid("unsupported version \(bytes[0])")
        }
        let sequence = bytes[1..<9].reduce(Int64(0)) { $0 << 8 | Int64($1) }
        let tag = bytes[0] == Self.epochVersion ? Array(bytes[9..<(9 + Self.epochTagLength)]) : []
        let expected = mac(version: bytes[0], recipient: recipient, container: container, sequence: sequence, tag: tag)
        guard Self.constantTimeEqual(expected, bytes[(9 + tag.count)...]) else {
            throw Self.invalid("it was not issued for this user and container, or it was altered")
        }
        guard sequence >= -1 else { throw Self.invalid("the position is out of range") }
        if !tag.isEmpty, let epochTag, tag != epochTag {
            throw ReaderError(
                .changeTokenExpired,
                "changeTokenExpired: the change token was issued by a store built from another Kafka cluster; fetch again without a token",
                operation: "verify change token")
        }
        return sequence
    }

    private func mac(version: UInt8, recipient: String, container: String, sequence: Int64, tag: [UInt8]) -> [UInt8] {
        var hmac = keyedMAC
        withUnsafeBytes(of: version) { hmac.update(data: $0) }
        for var field in [recipient, container] {
            field.withUTF8 { utf8 in
                withUnsafeBytes(of: UInt32(truncatingIfNeeded: utf8.count).bigEndian) { hmac.update(data: $0) }
                hmac.update(data: UnsafeRawBufferPointer(utf8))
            }
        }
        withUnsafeBytes(of: sequence.bigEndian) { hmac.update(data: $0) }
        hmac.update(data: tag)
        return hmac.finalize().withUnsafeBytes { Array($0.prefix(Self.macLength)) }
    }

    private static func bigEndian<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
        withUnsafeBytes(of: value.bigEndian) { Array($0) }
    }

    /// Compares without an early exit, so timing reveals nothing about where a MAC differs.
    private static func constantTimeEqual(_ lhs: [UInt8], _ rhs: ArraySlice<UInt8>) -> Bool {
        guard lhs.count == rhs.count else { return false }
        var difference: UInt8 = 0
        for (a, b) in zip(lhs, rhs) { difference |= a ^ b }
        return difference == 0
    }

    private static func invalid(_ detail: String) -> ReaderError {
        ReaderError(.badRequest, "invalid change token: \(detail)", operation: "verify change token")
    }
}
