import Foundation

/// The JSON body of every error answer, CloudKit Web Services style:
/// `{"reason": "...", "serverErrorCode": "...", "uuid": "<request id>"}`.
struct ErrorBody: Codable, Sendable, Equatable {
    var serverErrorCode: String
    var reason: String
    /// The request's ID (also in the server's log lines), to quote in a bug report.
    var uuid: String
}

extension ErrorBody {
    /// The body answering `error` to the request `requestID`.
    init(_ error: APIError, requestID: String) {
        self.init(serverErrorCode: error.code.rawValue, reason: error.reason, uuid: requestID)
    }

    /// Compact JSON with sorted keys (strings only: encoding cannot fail).
    var json: Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)) ?? Data(#"{"serverErrorCode":"INTERNAL_ERROR"}"#.utf8)
    }
}
