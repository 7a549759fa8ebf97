import Foundation

/// One request the stand-in received, and what it answered.
public struct RecordedPush: Sendable, Hashable {
    /// `POST`, …
    public var method: String
    /// The request path (`/3/device/<token>`, `/v1/projects/<p>/messages:send`, `/token`).
    public var path: String
    /// The request headers, lower-case names (HTTP/2 pseudo-headers excluded).
    public var headers: [String: String]
    /// The request body.
    public var body: [UInt8]
    /// The status the stand-in answered.
    public var status: Int
    /// The reason it gave with a refusal, or `nil` for 200.
    public var reason: String?
    /// When it was answered, milliseconds since 1970.
    public var answeredAt: Int64

    /// Creates a record.
    public init(
        method: String, path: String, headers: [String: String], body: [UInt8], status: Int, reason: String?,
        answeredAt: Int64 = Int64(Date().timeIntervalSince1970 * 1000)
    ) {
        self.method = method
        self.path = path
        self.headers = headers
        self.body = body
        self.status = status
        self.reason = reason
        self.answeredAt = answeredAt
    }

    /// The body as text.
    public var bodyText: String { String(decoding: body, as: UTF8.self) }

    /// For `make demo`: method, path, headers sorted (the bearer token shortened, it is a
    /// credential), then the body.
    public var printed: String {
        var lines = ["\(method) \(path) → \(status)\(reason.map { " " + $0 } ?? "")"]
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
            let shown = name == "authorization" ? String(value.prefix(16)) + "… (\(value.utf8.count) bytes)" : value
            lines.append("  \(name): \(shown)")
        }
        lines.append("  " + bodyText)
        return lines.joined(separator: "\n")
    }
}
