import GRDB

/// One fetch, validated outside the database (limit, token signature) and run on one
/// read snapshot.
struct PageQuery: Sendable {
    let stream: StreamID
    /// The token's position, or `nil` for "from the oldest retained".
    let after: Int64?
    let limit: Int
    let includeRead: Bool

    /// Everything besides the stream that decides the page (what a cached page is kept under).
    var shape: PageCache.Shape { PageCache.Shape(after: after, limit: limit, includeRead: includeRead) }

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
        // A cursor reads each row in place (no copy of every row and its column names);
        // columns by index, in `select`'s order: a lookup by name compares names
        // case-insensitively per row.
        let rows = try Row.fetchCursor(
            db.cachedStatement(sql: includeRead ? Self.allSQL : Self.unreadSQL),
            arguments: [stream.recipient, stream.container, start, limit + 1])
        var entries: [StoredPage.Entry] = []
        entries.reserveCapacity(min(limit, 64))
        var moreComing = false
        while let row = try rows.next() {
            guard entries.count < limit else {
                moreComing = true
                break
            }
            entries.append(StoredPage.Entry(notificationID: row[0], sequence: row[1], createdAt: row[2], isRead: row[4], json: row[3]))
        }
        let position: Int64
        if moreComing, let last = entries.last {
            position = last.sequence
        } else if includeRead {
            // The page holds every retained row after `start`: its last is the latest.
            position = max(start, entries.last?.sequence ?? start)
        } else {
            // Past any trailing read notifications the page skipped, and never backwards
            // (`start` is at least the pruned-through mark).
            position = max(start, try StreamRetention.latestRetainedSequence(stream, in: db) ?? -1)
        }
        return StoredPage(stream: stream, entries: entries, position: position, moreComing: moreComing)
    }

    /// Its columns are read by index in `run(in:)`: keep the two in the same order.
    private static let select = """
        SELECT n.notificationID, n.sequence, n.createdAt, n.json, r.notificationID IS NOT NULL AS isRead
        FROM notification n LEFT JOIN notificationRead r
          ON r.recipient = n.recipient AND r.container = n.container AND r.notificationID = n.notificationID
        WHERE n.recipient = ? AND n.container = ? AND n.sequence > ?
        """
    /// Arguments in order: recipient, container, after, limit.
    private static let allSQL = select + " ORDER BY n.sequence LIMIT ?"
    private static let unreadSQL = select + " AND r.notificationID IS NULL ORDER BY n.sequence LIMIT ?"
}
