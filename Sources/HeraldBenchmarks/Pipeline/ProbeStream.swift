import AsyncHTTPClient
import Foundation
import NIOCore

/// One probe user's event stream: `GET /v1/containers/{container}/notifications/stream`
/// from a change token — what an app that wants notifications as they arrive does. The
/// reader's API writes each notification to the stream as soon as its batch is applied, so
/// the moment an event arrives is the moment the notification became fetchable over HTTP,
/// without the polling interval of `ProbeFetcher` (a twentieth of the pending age, up to
/// 20 ms) in the measurement.
struct ProbeStream: Sendable {
    let url: String
    let bearer: String
    let client: HTTPClient

    /// The `data:` field the probe reads of an `event: notification`.
    private struct Event: Decodable {
        struct Record: Decodable { var recordName: String }
        var recordID: Record?
    }

    /// The stream of `user`'s notifications in `container` on the server at `port` (loopback).
    init(port: Int, container: String, bearer: String, client: HTTPClient) {
        url = "http://127.0.0.1:\(port)/v1/containers/\(container)/notifications/stream"
        self.bearer = bearer
        self.client = client
    }

    /// Reads the stream after `token`, handing each notification's record name to
    /// `received` as its event arrives, until the task is cancelled.
    /// - Throws: `BenchmarkError` when the server does not answer 200, sends an `error`
    ///   event or ends the stream; `CancellationError` when cancelled.
    func read(after token: String, received: @Sendable (String) async -> Void) async throws {
        var components = URLComponents(string: url)
        components?.queryItems = [URLQueryItem(name: "since", value: token)]
        var request = HTTPClientRequest(url: components?.string ?? url)
        request.headers.add(name: "Authorization", value: "Bearer \(bearer)")
        request.headers.add(name: "Accept", value: "text/event-stream")
        let response = try await client.execute(request, timeout: .hours(1))
        guard response.status.code == 200 else {
            let body = try await response.body.collect(upTo: 1 << 16)
            throw BenchmarkError("probe stream \(url) answered \(response.status.code): \(String(buffer: body).prefix(300))")
        }
        var pending: [UInt8] = []
        for try await chunk in response.body {
            pending.append(contentsOf: chunk.readableBytesView)
            // Events end with an empty line.
            while let end = Self.eventEnd(in: pending) {
                let event = Array(pending[..<end])
                pending.removeFirst(end + 2)
                if let name = try Self.recordName(of: event) { await received(name) }
            }
        }
        try Task.checkCancellation()
        throw BenchmarkError("probe stream \(url) ended")
    }

    /// The index of the first "\n\n" in `bytes`.
    private static func eventEnd(in bytes: [UInt8]) -> Int? {
        guard bytes.count >= 2 else { return nil }
        for index in 0..<(bytes.count - 1) where bytes[index] == 0x0A && bytes[index + 1] == 0x0A { return index }
        return nil
    }

    /// The record name of an `event: notification`; nil for other events (`ready`, comments).
    private static func recordName(of event: [UInt8]) throws -> String? {
        var kind = ""
        var data = ""
        for line in String(decoding: event, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: true) {
            if line.hasPrefix("event: ") { kind = String(line.dropFirst(7)) }
            if line.hasPrefix("data: ") { data += line.dropFirst(6) }
        }
        switch kind {
        case "notification":
            return try? JSONDecoder().decode(Event.self, from: Data(data.utf8)).recordID?.recordName
        case "error":
            throw BenchmarkError("probe stream sent an error event: \(data.prefix(300))")
        default:
            return nil
        }
    }
}
