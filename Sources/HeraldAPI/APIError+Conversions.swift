import HeraldMatcher
import HeraldModel
import HeraldReader

extension APIError {
    /// A store failure as the client sees it: bad or foreign change tokens and bad limits
    /// are `BAD_REQUEST`, an expired token `CHANGE_TOKEN_EXPIRED`, anything else
    /// `INTERNAL_ERROR` with a generic reason (the store's message may name files).
    public init(_ error: ReaderError) {
        switch error.code {
        case .badRequest: self.init(.badRequest, error.reason)
        case .changeTokenExpired: self.init(.changeTokenExpired, error.reason)
        default: self.init(.internalError, "the notification store failed")
        }
    }

    /// A refused subscription, with the matcher's code and reason.
    public init(_ error: MatcherError) {
        switch error.code {
        case .invalidSubscription: self.init(.invalidSubscription, error.reason)
        case .invalidPredicate: self.init(.invalidPredicate, error.reason)
        case .duplicateSubscription: self.init(.duplicateSubscription, error.reason)
        }
    }

    /// A request body that does not decode: `BAD_REQUEST`, the reason led by the JSON path
    /// (`resultsLimit: expected an integer but found a string`).
    static func badJSON(_ error: ModelError) -> APIError {
        APIError(.badRequest, error.path.isEmpty ? error.reason : "\(error.path): \(error.reason)")
    }
}

extension APIError {
    /// Any failure as the client sees it: API, store and matcher errors keep their
    /// meaning; anything else is `INTERNAL_ERROR` with a generic reason.
    static func from(_ error: any Error) -> APIError {
        switch error {
        case let error as APIError: error
        case let error as ReaderError: APIError(error)
        case let error as MatcherError: APIError(error)
        case let error as PublishFailure: error.apiError
        default: APIError(.internalError, "the server failed to answer")
        }
    }
}
