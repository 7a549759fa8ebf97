import Foundation
import HeraldModel

/// A notification as it arrives from topic `notifications`: its JSON kept as is (the compose
/// stage wrote it with `WireCodec`), with only the fields the store indexes decoded — much
/// cheaper than decoding and re-encoding the whole notification.
public struct EncodedNotification: Sendable, Hashable {
    public var notificationID: String
    public var recipient: String
    public var containerIdentifier: String
    public var sequence: Int64
    public var createdAt: Int64
    public var json: Data

    /// Reads the indexed fields of a notification's JSON (HeraldModel's fast reader: the
    /// other members are skipped, not decoded).
    /// - Throws: `ReaderError` (`BAD_REQUEST`) naming what is missing or wrong.
    public init(json: Data) throws(ReaderError) {
        let header: NotificationHeader
        do {
            header = try WireCodec().decode(NotificationHeader.self, from: json)
        } catch {
            throw ReaderError(.badRequest, "not a notification: \(error)", operation: "apply")
        }
        guard !header.notificationID.isEmpty, !header.recipient.isEmpty, !header.containerIdentifier.isEmpty,
              header.sequence >= 0, header.createdAt >= 0
        else {
            throw ReaderError(.badRequest, "notification needs a notificationID, recipient, container and non-negative sequence", operation: "apply")
        }
        notificationID = header.notificationID
        recipient = header.recipient
        containerIdentifier = header.containerIdentifier
        sequence = header.sequence
        createdAt = header.createdAt
        self.json = json
    }
}
