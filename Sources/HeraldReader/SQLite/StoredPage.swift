import Foundation
import HeraldModel

/// A page as read from the database, turned into an `EncodedNotificationPage` after the
/// read connection is released.
struct StoredPage: Sendable {
    struct Entry: Sendable {
        var notificationID: String
        var sequence: Int64
        var createdAt: Int64
        var isRead: Bool
        /// The notification as stored (`WireCodec` JSON), read or not.
        var json: Data
    }

    var stream: StreamID
    var entries: [Entry]
    /// The sequence the returned token stands for.
    var position: Int64
    var moreComing: Bool

    func token(_ signer: ChangeTokenSigner) -> ChangeToken {
        signer.token(recipient: stream.recipient, container: stream.container, sequence: position)
    }

    /// What a fetch returns for a read notification: only its ID and the keys the model requires.
    func readNotification(_ entry: Entry) -> HeraldNotification {
        HeraldNotification(
            notificationID: entry.notificationID, notificationType: .readNotification,
            containerIdentifier: stream.container, recipient: stream.recipient, sequence: entry.sequence,
            createdAt: entry.createdAt)
    }

    /// Keeps the stored JSON; encodes only the (small) read notifications.
    /// - Throws: `ReaderError` (`INTERNAL_ERROR`) if a read notification cannot be encoded.
    func encodedPage(signer: ChangeTokenSigner) throws(ReaderError) -> EncodedNotificationPage {
        var notifications: [EncodedNotificationPage.Entry] = []
        notifications.reserveCapacity(entries.count)
        for entry in entries {
            var json = entry.json
            if entry.isRead {
                do {
                    json = try WireCodec().encode(readNotification(entry))
                } catch {
                    throw ReaderError(.internalError, "cannot encode a read notification: \(error)", operation: "fetch")
                }
            }
            notifications.append(EncodedNotificationPage.Entry(
                notificationID: entry.notificationID, sequence: entry.sequence, isRead: entry.isRead, json: json))
        }
        return EncodedNotificationPage(notifications: notifications, serverChangeToken: token(signer), moreComing: moreComing)
    }
}
