/// A publish that failed: the client gets `SERVICE_UNAVAILABLE` and retries; the log gets
/// the underlying error.
struct PublishFailure: Error {
    var what: String
    var underlying: any Error

    var apiError: APIError { APIError(.serviceUnavailable, "cannot publish the \(what) now; retry later") }

    /// Runs a publish; any failure becomes a `PublishFailure` naming `what` was published.
    static func publishing(_ what: String, _ publish: () async throws -> Void) async throws(PublishFailure) {
        do {
            try await publish()
        } catch {
            throw PublishFailure(what: what, underlying: error)
        }
    }
}
