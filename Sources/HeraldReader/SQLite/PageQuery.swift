import GRDB

/// One fetch, validated outside the database (limit, token signature) and run on one
/// read snapshot.
struct PageQuery: Sendable {
    let stream: StreamID
    /// The token's position, or `nil` for "from the oldest retained".
    let after: Int64?
    let limit: Int
    let includeRead: Bool

    /// - Throws: `ReaderError` (`BAD_REQUEST`) for an empty recipient or container, a
    ///   limit ≤ 0, or a token that fails verification.
    init(
        recipient: String, container: String, token: ChangeToken?, limit: Int?, includeRead: Bool,
        signer: ChangeTokenSigner
    ) throws(ReaderError) {
        guard !recipient.isEmpty, !container.isEmpty else {
            throw ReaderError(.badRequest, "a fetch needs a recipient and a container", operation: "fetch")
        }
        let limit = limit ?? NotificationStore.defaultResultsLimit
        guard limit > 0 else {
            throw ReaderError(.badRequest, "resultsLimit must be at least 1, got \(limit)", operation: "fetch")
        }
        stream = StreamID(recipient: recipient, container: container)
        after = try token.map { token throws(ReaderError) in
            try signer.sequence(of: token, recipient: recipient, container: container)
        }
        self.limit = min(limit, NotificationStore.maximumResultsLimit)
        self.includeRead = includeRead
    }

    /// The rows of the page and the position after it, on the caller's read snapshot.
    /// - Throws: `ReaderError` (`CHANGE_TOKEN_EXPIRED`), or the database's error.
    func run(in db: Database) throws -> StoredPage {
        let mark = try StreamRetention.prunedThrough(stream, in: db)
        if let after, after < mark {
            throw ReaderError(
                .changeTokenExpired,
                "changeTokenExpired: notifications after this change token were removed by retention; fetch again without a token",
                operation: "fetch")
        }
        let start = after ?? mark
        let rows = try Row.fetchAll(
            db.cachedStatement(sql: includeRead ? Self.allSQL : Self.unreadSQL),
            arguments: ["recipient": stream.recipient, "container": stream.container, "after": start, "limit": limit + 1])
        let moreComing = rows.count > limit
        // Columns by index, in `select`'s order: a lookup by name compares names case-insensitively per row.
        let entries = rows.prefix(limit).map { row in
            StoredPage.Entry(notificationID: row[0], sequence: row[1], createdAt: row[2], isRead: row[4], json: row[3])
        }
        let position: Int64
        if moreComing, let last = entries.last {
            position = last.sequence
        } else {
            // Past any trailing read notifications a page skipped, and never backwards.
            position = max(start, try StreamRetention.latestSequence(stream, in: db) ?? -1)
        }
        return StoredPage(stream: stream, entries: entries, position: position, moreComing: moreComing)
    }

    /// Its columns are read by index in `run(in:)`: keep the two in the same order.
    private static let select = """
        SELECT n.notificationID, n.sequence, n.createdAt, n.json, r.notificationID IS NOT NULL AS isRead
        FROM notification n LEFT JOIN notificationRead r
          ON r.recipient = n.recipient AND r.container = n.container AND r.notificationID = n.notificationID
        WHERE n.recipient = :recipient AND n.container = :container AND n.sequence > :after
        """
    private static let allSQL = select + " ORDER BY n.sequence LIMIT :limit"
    private static let unreadSQL = select + " AND r.notificationID IS NULL ORDER BY n.sequence LIMIT :limit"
}
