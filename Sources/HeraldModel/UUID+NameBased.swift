import Foundation

extension UUID {
    /// The RFC 9562 namespace for domain names (`6ba7b810-9dad-11d1-80b4-00c04fd430c8`).
    public static let dnsNamespace = UUID(uuid: (
        0x6B, 0xA7, 0xB8, 0x10, 0x9D, 0xAD, 0x11, 0xD1, 0x80, 0xB4, 0x00, 0xC0, 0x4F, 0xD4, 0x30, 0xC8))

    /// Herald's namespace for notification IDs (`c2a9f3d8-6f1e-4b7a-9d0c-5e8b1a2f4c60`, a
    /// fixed random UUID). Changing it changes every notification ID: never do.
    public static let heraldNamespace = UUID(uuid: (
        0xC2, 0xA9, 0xF3, 0xD8, 0x6F, 0x1E, 0x4B, 0x7A, 0x9D, 0x0C, 0x5E, 0x8B, 0x1A, 0x2F, 0x4C, 0x60))

    /// A name-based UUID, version 5 (SHA-1), per RFC 9562 §5.5: the same namespace and
    /// name always give the same UUID.
    /// - Parameters:
    ///   - name: hashed as its UTF-8 bytes.
    ///   - namespace: the namespace UUID.
    public init(version5 name: String, namespace: UUID) {
        var name = name
        let h = withUnsafeBytes(of: namespace.uuid) { prefix in
            name.withUTF8 { utf8 in SHA1.words(of: prefix, UnsafeRawBufferPointer(utf8)) }
        }
        func byte(_ word: UInt32, _ index: Int) -> UInt8 { UInt8(truncatingIfNeeded: word >> UInt32(24 - 8 * index)) }
        self.init(uuid: (
            byte(h.0, 0), byte(h.0, 1), byte(h.0, 2), byte(h.0, 3), byte(h.1, 0), byte(h.1, 1),
            (byte(h.1, 2) & 0x0F) | 0x50, byte(h.1, 3), (byte(h.2, 0) & 0x3F) | 0x80, byte(h.2, 1), byte(h.2, 2),
            byte(h.2, 3), byte(h.3, 0), byte(h.3, 1), byte(h.3, 2), byte(h.3, 3)))
    }

    /// The lower-case string form used on the wire (`ck.nid`, `notificationID`): the same
    /// text as `uuidString.lowercased()`, written directly (Foundation formats `uuidString`
    /// through `sprintf`, a visible cost when every match derives its ID).
    public var lowercasedString: String {
        withUnsafeBytes(of: uuid) { raw in
            String(unsafeUninitializedCapacity: 36) { out in
                let digits: StaticString = "0123456789abcdef"
                var index = 0
                for (position, byte) in raw.enumerated() {
                    if position == 4 || position == 6 || position == 8 || position == 10 {
                        out[index] = UInt8(ascii: "-")
                        index += 1
                    }
                    out[index] = digits.utf8Start[Int(byte >> 4)]
                    out[index + 1] = digits.utf8Start[Int(byte & 0x0F)]
                    index += 2
                }
                return index
            }
        }
    }
}
