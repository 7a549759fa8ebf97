import Foundation

extension Match {
    /// The first byte of a match in the compact binary form (`compactEncoded(reusing:)`).
    /// JSON never starts with it, so a reader tells the forms apart by that byte alone.
    public static let compactForm: UInt8 = 4
    /// The compact form written before subscriptions had a revision (session 16), still read:
    /// the same but for the subscription's revision.
    public static let compactFormWithoutRevision: UInt8 = 3

    /// Decodes a value of topic `matches` in any form this version reads: the compact binary
    /// form (first byte `compactForm`, or `compactFormWithoutRevision` from a match stage of
    /// before session 16), or JSON — the slim form 2 or the full form of earlier versions
    /// (`WireCodec`), which a match stage not yet upgraded still writes.
    /// - Throws: `ModelError` naming what is wrong and where (`subscription.container`, …);
    ///   bytes that are not in the compact form are `malformedJSON`.
    public init(matchesValue data: Data, codec: WireCodec = WireCodec()) throws(ModelError) {
        let form = data.first
        guard form == Self.compactForm || form == Self.compactFormWithoutRevision else {
            self = try codec.decode(Match.self, from: data)
            return
        }
        let result = data.withUnsafeBytes { (raw) -> Result<Match, ModelError> in
            Result { () throws(ModelError) in
                var reader = CompactReader(raw, offset: 1)
                let match = try Match(compact: &reader, withRevision: form == Self.compactForm)
                guard reader.isAtEnd else { throw CompactReader.malformed("bytes after the match") }
                return match
            }
        }
        self = try result.get()
    }

    /// The slim match (`slimmed()`) in the compact binary form, for topic `matches`: what
    /// the compose stage reads, several times cheaper to write and read than JSON. Only
    /// `init(matchesValue:)` reads it, so the compose stage must be upgraded no later than
    /// the match stage (as for the slim form).
    /// - Parameter writer: emptied first; reuse one for a batch.
    /// - Throws: `ModelError` (`encodingFailed`) for a value JSON could not hold either
    ///   (a non-finite double, a list holding values of another type).
    public func compactEncoded(reusing writer: inout CompactWriter) throws(ModelError) -> Data {
        writer.removeAll()
        writer.byte(Self.compactForm)
        writer.string(recipient)
        writer.string(notificationType.rawValue)
        writer.optionalString(queryNotificationReason?.rawValue)
        subscription.writeSlim(to: &writer)
        try change.writeSlim(to: &writer, fields: subscription.notificationInfo.fieldNames)
        writer.string(notificationID)
        return writer.data
    }

    /// Reads the fields in `compactEncoded` order, with the checks of `init(wire:at:)` in
    /// the same order and with the same codes and paths.
    init(compact reader: inout CompactReader, withRevision: Bool) throws(ModelError) {
        recipient = try reader.nonEmpty("recipient")
        notificationType = try reader.wireEnum(NotificationType.self, "notificationType")
        let reason = try reader.optionalString()
        do {
            queryNotificationReason = try reason.map { (name) throws(ModelError) in
                try QueryNotificationReason(wireName: name, at: [])
            }
        } catch {
            throw error.prefixed("queryNotificationReason")
        }
        do { subscription = try Subscription(slimCompact: &reader, withRevision: withRevision) } catch { throw error.prefixed("subscription") }
        do { change = try RecordChange(slimCompact: &reader) } catch { throw error.prefixed("change") }
        notificationID = try reader.nonEmpty("notificationID")
        try checkConsistency()
    }
}
