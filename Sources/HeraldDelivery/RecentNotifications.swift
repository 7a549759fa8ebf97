import Foundation
import HeraldModel

/// The latest notifications a user was sent, as 64-bit fingerprints of their IDs, oldest
/// first, at most `limit`: the compose stage skips a match or firing whose ID is among them
/// (the same change or firing delivered twice upstream gives the same ID).
///
/// Fingerprints instead of the IDs themselves because the window travels in every
/// `compose-state` changelog entry, one per user per batch: 512 IDs as JSON strings were
/// ~20 KB per entry (for a notification of ~1 KB) and ~1,000 string comparisons per match;
/// 512 fingerprints are 5.5 KB of base64 and a scan of 4 KB. A fingerprint is 64 bits of the
/// ID's UUID (the two halves XORed, which keeps all 122 of its hashed bits in play; any
/// other text is first made a name-based UUID), so two different IDs in one window are
/// taken for one with a chance of about 512 · 2⁻⁶⁴ per notification.
public struct RecentNotifications: Sendable, Hashable {
    /// How many notifications the window keeps.
    public static let limit = 512

    /// Oldest first.
    public private(set) var fingerprints: [UInt64] = []

    public init() {}

    /// Whether a notification with this fingerprint is in the window.
    public func contains(_ fingerprint: UInt64) -> Bool { fingerprints.contains(fingerprint) }

    /// Whether a notification with this ID is in the window.
    public func contains(_ notificationID: String) -> Bool { contains(Self.fingerprint(notificationID)) }

    /// Adds a notification ID, forgetting the oldest beyond `limit`.
    public mutating func remember(_ notificationID: String) { remember(fingerprint: Self.fingerprint(notificationID)) }

    /// Adds a notification by its fingerprint, forgetting the oldest beyond `limit`.
    public mutating func remember(fingerprint: UInt64) {
        fingerprints.append(fingerprint)
        if fingerprints.count > Self.limit { fingerprints.removeFirst(fingerprints.count - Self.limit) }
    }

    /// The fingerprint of a UUID: its two 64-bit halves XORed.
    public static func fingerprint(_ uuid: UUID) -> UInt64 {
        withUnsafeBytes(of: uuid.uuid) { raw in
            raw.loadUnaligned(fromByteOffset: 0, as: UInt64.self).bigEndian
                ^ raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self).bigEndian
        }
    }

    /// The fingerprint of an ID: that of its UUID when it is one (any case), else that of
    /// the name-based UUID (SHA-1) of its text in Herald's namespace.
    public static func fingerprint(_ id: String) -> UInt64 {
        var text = id
        if let halves = text.withUTF8(uuidHalves) { return halves.0 ^ halves.1 }
        return fingerprint(UUID(version5: id, namespace: .heraldNamespace))
    }

    /// The two halves of a UUID written as `8-4-4-4-12` hexadecimal digits, or nil.
    private static func uuidHalves(_ utf8: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt64)? {
        guard utf8.count == 36 else { return nil }
        var halves: (UInt64, UInt64) = (0, 0)
        var digits = 0
        for (index, byte) in utf8.enumerated() {
            if index == 8 || index == 13 || index == 18 || index == 23 {
                guard byte == UInt8(ascii: "-") else { return nil }
                continue
            }
            let value: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = byte &- UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): value = byte &- UInt8(ascii: "a") &+ 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): value = byte &- UInt8(ascii: "A") &+ 10
            default: return nil
            }
            if digits < 16 { halves.0 = halves.0 << 4 | UInt64(value) } else { halves.1 = halves.1 << 4 | UInt64(value) }
            digits += 1
        }
        return halves
    }

    /// The window as the changelog carries it: the fingerprints' big-endian bytes, base64.
    public var base64: String {
        var bytes = Data(capacity: fingerprints.count * 8)
        for fingerprint in fingerprints { withUnsafeBytes(of: fingerprint.bigEndian) { bytes.append(contentsOf: $0) } }
        return bytes.base64EncodedString()
    }

    /// Reads `base64`; nil when it is not base64 of whole fingerprints, at most `limit`.
    public init?(base64: String) {
        guard let bytes = Data(base64Encoded: base64), bytes.count % 8 == 0, bytes.count / 8 <= Self.limit else { return nil }
        fingerprints = bytes.withUnsafeBytes { raw in
            (0..<raw.count / 8).map { raw.loadUnaligned(fromByteOffset: $0 * 8, as: UInt64.self).bigEndian }
        }
    }

    /// The window of a state written before fingerprints (`recentNotificationIDs`): the
    /// latest `limit` of `ids`, oldest first.
    public init(ids: [String]) {
        fingerprints = ids.suffix(Self.limit).map(Self.fingerprint)
    }
}
