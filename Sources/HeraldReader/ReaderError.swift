/// The one error type of `HeraldReader`: a stable code the HTTP API puts in its body as
/// `serverErrorCode`, a sentence for humans, and the operation that failed.
public struct ReaderError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A stable, machine-readable classification, spelled like CloudKit Web Services'
    /// `serverErrorCode`. An open set: more codes may be added.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        public var rawValue: String

        /// Creates a code from its wire spelling.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The request is invalid: a malformed, altered or foreign change token, a bad
        /// `resultsLimit`, a negative offset…
        public static let badRequest = Code(rawValue: "BAD_REQUEST")
        /// The change token is older than the retained notifications (`changeTokenExpired`):
        /// the client must fetch again without a token.
        public static let changeTokenExpired = Code(rawValue: "CHANGE_TOKEN_EXPIRED")
        /// The store failed (SQLite error, corrupt row, closed database).
        public static let internalError = Code(rawValue: "INTERNAL_ERROR")
        /// The store or signer was configured wrongly (a short key, a zero retention count).
        public static let invalidConfiguration = Code(rawValue: "INVALID_CONFIGURATION")

        public var description: String { rawValue }
    }

    /// The classification.
    public var code: Code
    /// What is wrong, for humans.
    public var reason: String
    /// The operation that failed (`fetch`, `apply`, `open`, `verify token`…).
    public var operation: String

    /// Creates an error.
    public init(_ code: Code, _ reason: String, operation: String) {
        self.code = code
        self.reason = reason
        self.operation = operation
    }

    /// `code.rawValue`, for the HTTP body's `serverErrorCode`.
    public var serverErrorCode: String { code.rawValue }

    /// `CODE (operation): reason`.
    public var description: String { "\(code) (\(operation)): \(reason)" }

    /// A failure of the database underneath, keeping its message; a `ReaderError` thrown
    /// inside a transaction passes through unchanged.
    static func wrapping(_ error: any Error, operation: String) -> ReaderError {
        if let error = error as? ReaderError { return error }
        if error is CancellationError {
            return ReaderError(.internalError, "cancelled before the database answered", operation: operation)
        }
        return ReaderError(.internalError, "database error: \(error)", operation: operation)
    }
}
