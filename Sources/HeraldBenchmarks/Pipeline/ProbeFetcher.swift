import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One probe user's client of the reader's API: fetches the user's notifications with
/// `POST /v1/containers/{container}/notifications/changes` after its last change token —
/// what an app does — and reports the record names of what came back.
struct ProbeFetcher: Sendable {
    let url: URL
    let bearer: String

    /// The page fields the probe reads.
    private struct Page: Decodable {
        struct Entry: Decodable {
            struct Record: Decodable { var recordName: String }
            var recordID: Record?
        }
        var notifications: [Entry]
        var serverChangeToken: String
        var moreComing: Bool
    }

    /// The fetcher of `user`'s notifications in `container` on the server at `port` (loopback).
    init(port: Int, container: String, bearer: String) {
        url = URL(string: "http://127.0.0.1:\(port)/v1/containers/\(container)/notifications/changes")!
        self.bearer = bearer
    }

    /// One page after `token` (from the oldest when nil).
    /// - Returns: the record names of its notifications, the token to continue from, and
    ///   whether more is waiting.
    /// - Throws: `BenchmarkError` when the server does not answer 200 with a page.
    func fetch(after token: String?) async throws -> (recordNames: [String], token: String, moreComing: Bool) {
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONEncoder().encode(["serverChangeToken": token])
        let (body, response) = try await URLSession.shared.data(for: request)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard status == 200, let page = try? JSONDecoder().decode(Page.self, from: body) else {
            throw BenchmarkError("probe fetch \(url.path) answered \(status): \(String(decoding: body.prefix(300), as: UTF8.self))")
        }
        return (page.notifications.compactMap { $0.recordID?.recordName }, page.serverChangeToken, page.moreComing)
    }
}
