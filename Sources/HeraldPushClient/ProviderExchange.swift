import Foundation
import AsyncHTTPClient
import NIOCore
import NIOHTTP1

/// One request/response with a provider, reduced to what the clients interpret.
public enum ProviderExchange {
    /// The largest response body read; providers answer with small JSON.
    static let maxBodyBytes = 64 * 1024

    /// What came back.
    public enum Outcome: Sendable {
        /// An HTTP answer: status, headers and body.
        case answered(status: Int, headers: HTTPHeaders, body: [UInt8])
        /// No answer: connect, TLS, reset or timeout; the error in words.
        case failed(String)
    }

    /// Performs `request` on `client` within `timeout`.
    static func perform(_ request: HTTPClientRequest, on client: HTTPClient, timeout: Duration) async -> Outcome {
        do {
            let response = try await client.execute(request, timeout: .nanoseconds(timeout.wholeNanoseconds))
            let body = try await response.body.collect(upTo: maxBodyBytes)
            return .answered(status: Int(response.status.code), headers: response.headers, body: Array(buffer: body))
        } catch {
            return .failed(String(describing: error))
        }
    }

    /// `Retry-After` in seconds when given as a number (the providers' form).
    static func retryAfter(_ headers: HTTPHeaders) -> Int? {
        headers.first(name: "retry-after").flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
    }
}
