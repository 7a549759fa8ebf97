/// The members of a notification's JSON that the reader store indexes, read without
/// materializing the rest (the store keeps the JSON as written).
public struct NotificationHeader: Sendable, Hashable, Decodable, WireDecodable {
    public var notificationID: String
    public var recipient: String
    public var containerIdentifier: String
    public var sequence: Int64
    public var createdAt: Int64

    /// Reads the five members; the others are skipped, not checked.
    public init(wire document: JSONDocument, at node: Int) throws(ModelError) {
        let c = try JSONMembers(document, node)
        notificationID = try c.string("notificationID")
        recipient = try c.string("recipient")
        containerIdentifier = try c.string("containerIdentifier")
        guard let sequence = try c.integerIfPresent("sequence") else { throw c.missing("sequence") }
        self.sequence = sequence
        guard let createdAt = try c.integerIfPresent("createdAt") else { throw c.missing("createdAt") }
        self.createdAt = createdAt
    }
}
