import GRDB

extension NotificationStore {
    /// The notifications of `recipient` in `container` after `token`
    /// (CKFetchNotificationChangesOperation), on one consistent snapshot.
    ///
    /// - No token: from the oldest retained notification. A token: strictly after the
    ///   position it stands for.
    /// - `limit` (`resultsLimit`): `nil` means 200 (`defaultResultsLimit`); more than 400
    ///   (`maximumResultsLimit`) is clamped; `moreComing` tells that it cut the page short.
    /// - Read notifications come back as `readNotification` with only their ID (plus the
    ///   container, recipient, sequence and creation time), or are skipped when
    ///   `includeRead` is false — the returned token still moves past them.
    /// - The returned token, when nothing is new, is the position asked from (without a
    ///   token: the current start of the stream).
    /// - Throws: `ReaderError` — `BAD_REQUEST` ("invalid change token …") for a token that
    ///   is malformed, altered or issued for another user or container, or a limit ≤ 0;
    ///   `CHANGE_TOKEN_EXPIRED` when retention removed notifications after the token;
    ///   `INTERNAL_ERROR` when the database fails.
    ///
    /// The notifications stay the JSON the store holds (as the compose stage wrote them),
    /// ready for an HTTP body (`jsonBody`) or server-sent events; decode `jsonBody` as a
    /// `NotificationPage` where values are needed.
    ///
    /// A page already answered for the same stream, position, limit and `includeRead` is
    /// answered again from memory until a write changes the stream (`PageCache`): the
    /// same page the database would give, never one from before a write that returned.
    public func fetchEncoded(
        recipient: String, container: String, after token: ChangeToken?, limit: Int? = nil, includeRead: Bool = true
    ) async throws(ReaderError) -> EncodedNotificationPage {
        let query = try PageQuery(
            recipient: recipient, container: container, token: token, limit: limit, includeRead: includeRead,
            signer: tokenSigner)
        let ticket: PageCache.Ticket
        switch pageCache.lookup(query.stream, query.shape) {
        case .hit(let page): return page
        case .miss(let miss): ticket = miss
        }
        let stored: StoredPage
        if let fetchConnections {
            // On this thread, without a suspension (see `ReadConnections`).
            do {
                stored = try fetchConnections.read { db in try query.run(in: db) }
            } catch {
                throw ReaderError.wrapping(error, operation: "fetch")
            }
        } else {
            stored = try await reading("fetch") { db in try query.run(in: db) }
        }
        let page = try stored.encodedPage(signer: tokenSigner)
        pageCache.keep(page, for: ticket)
        return page
    }

    /// The highest sequence the stream has had (retained or already removed), or `nil`
    /// when it has had none: compare with a listener's position to know whether to fetch.
    /// - Throws: `ReaderError` (`INTERNAL_ERROR`).
    public func latestSequence(recipient: String, container: String) async throws(ReaderError) -> Int64? {
        let stream = StreamID(recipient: recipient, container: container)
        return try await reading("latest sequence") { db in try StreamRetention.latestSequence(stream, in: db) }
    }

    /// The user's badge count in a container: the latest `BadgeCount` the store applied (0 when none).
    /// - Throws: `ReaderError` (`INTERNAL_ERROR`).
    public func badge(recipient: String, container: String) async throws(ReaderError) -> Int {
        try await reading("badge") { db in
            try Int.fetchOne(db, sql: "SELECT badge FROM badge WHERE recipient = ? AND container = ?",
                             arguments: [recipient, container]) ?? 0
        }
    }
}
