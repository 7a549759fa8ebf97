/// Where `GET …/badge` reads a user's current badge count in a container: the count of
/// the newest notification, or what a later badge reset set. Called concurrently.
public protocol BadgeReading: Sendable {
    /// The badge of `recipient` in `container`; 0 when nothing has set one.
    /// - Throws: anything; the API answers `INTERNAL_ERROR` (a `ReaderError` keeps its code).
    func badge(recipient: String, container: String) async throws -> Int
}
