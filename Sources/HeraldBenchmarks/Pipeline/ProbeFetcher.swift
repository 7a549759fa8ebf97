import AsyncHTTPClient
import Foundation
import NIOCore

/// One probe user's client of the reader's API: fetches the user's notifications with
/// `POST /v1/containers/{container}/notifications/changes` after its last change token —
/// what an app does — and reports the record names of what came back.
///
/// It goes through `client` (AsyncHTTPClient, a kept-alive connection on the benchmark's
/// event loops), not Foundation's `URLSession`: on Linux that runs each request through
/// libcurl on threads of its own, and its round trip (several milliseconds on this
/// machine) was part of every probe's measured latency (`ProbeTrace`'s fetch gap).
struct ProbeFetcher: Sendable {
    let url: String
    let bearer: String
    let client: HTTPClient

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
    init(port: Int, container: String, bearer: String, client: HTTPClient) {
        url = "http://127.0.0.1:\(port)/v1/containers/\(container)/notifications/changes"
        self.bearer = bearer
        self.client = client
    }

    /// One page after `token` (from the oldest when nil).
    /// - Returns: the record names of its notifications, the token to continue from, and
    ///   whether more is waiting.
    /// - Throws: `BenchmarkError` when the server does not answer 200 with a page.
    func fetch(after token: String?) async throws -> (recordNames: [String], token: String, moreComing: Bool) {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Authorization", value: "Bearer \(bearer)")
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(ByteBuffer(data: try JSONEncoder().encode(["serverChangeToken": token])))
        let response = try await client.execute(request, timeout: .seconds(30))
        let body = Data(buffer: try await response.body.collect(upTo: 16 << 20))
        guard response.status.code == 200, let page = try? JSONDecoder().decode(Page.self, from: body) else {
            throw BenchmarkError(
                "probe fetch \(url) answered \(response.status.code): \(String(decoding: body.prefix(300), as: UTF8.self))")
        }
        return (page.notifications.compactMap { $0.recordID?.recordName }, page.serverChangeToken, page.moreComing)
    }
}
