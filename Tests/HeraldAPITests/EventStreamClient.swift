import Foundation
import HeraldReader
import Hummingbird
import Synchronization
import Testing

@testable import HeraldAPI

/// One parsed server-sent event (or comment).
struct ParsedEvent: Equatable, Sendable {
    var id: String?
    var event: String?
    var data: String?
    var comment: String?
    var retry: String?

    /// Parses complete blocks (separated by a blank line) of `text`; returns the events and
    /// the unparsed rest.
    static func parse(_ text: String) -> (events: [ParsedEvent], rest: String) {
        var events: [ParsedEvent] = []
        var rest = Substring(text)
        while let end = rest.range(of: "\n\n") {
            let block = rest[..<end.lowerBound]
            rest = rest[end.upperBound...]
            var event = ParsedEvent()
            for line in block.split(separator: "\n", omittingEmptySubsequences: false) {
                if line.hasPrefix(":") {
                    event.comment = String(line.dropFirst().drop { $0 == " " })
                    continue
                }
                let parts = line.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
                let value = parts.count > 1 ? String(parts[1].dropFirst(parts[1].hasPrefix(" ") ? 1 : 0)) : ""
                switch parts[0] {
                case "id": event.id = value
                case "event": event.event = value
                case "data": event.data = value
                case "retry": event.retry = value
                default: Issue.record("unknown field in \(line)")
                }
            }
            events.append(event)
        }
        return (events, String(rest))
    }

    /// The notification ID in `data`.
    var notificationID: String? {
        guard let data, let object = try? JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any] else { return nil }
        return object["notificationID"] as? String
    }
}

/// A `ResponseBodyWriter` that hands every write to the test as it happens; with
/// `failAfter`, writes beyond that many throw (a client that went away).
struct RecordingWriter: ResponseBodyWriter {
    struct Gone: Error {}

    final class Counter: Sendable {
        let value = Mutex(0)
    }

    let chunks: AsyncStream<String>.Continuation
    let failAfter: Int?
    let writes = Counter()

    mutating func write(_ buffer: ByteBuffer) async throws {
        let count = writes.value.withLock { count in
            count += 1
            return count
        }
        if let failAfter, count > failAfter { throw Gone() }
        chunks.yield(String(buffer: buffer))
    }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {
        chunks.yield("<finished>")
        chunks.finish()
    }
}

/// Reads a response body written by a `RecordingWriter` as events, waiting as needed.
final class EventReader: @unchecked Sendable {
    // Only the test task touches these (one reader per test): unchecked is safe here.
    private var iterator: AsyncStream<String>.Iterator
    private var buffered = ""
    private(set) var pending: [ParsedEvent] = []
    private(set) var isFinished = false

    init(_ stream: AsyncStream<String>) {
        iterator = stream.makeAsyncIterator()
    }

    /// The next event (including comments); `nil` when the body finished.
    func next() async -> ParsedEvent? {
        while pending.isEmpty {
            guard !isFinished, let chunk = await iterator.next() else {
                isFinished = true
                return nil
            }
            if chunk == "<finished>" {
                isFinished = true
                return nil
            }
            buffered += chunk
            let parsed = ParsedEvent.parse(buffered)
            pending += parsed.events
            buffered = parsed.rest
        }
        return pending.removeFirst()
    }

    /// The next `count` events (blocks with an `event:`; comments and `retry:` skipped).
    func events(_ count: Int) async -> [ParsedEvent] {
        var result: [ParsedEvent] = []
        while result.count < count, let event = await next() {
            if event.event != nil { result.append(event) }
        }
        return result
    }

    /// Everything until the body finishes.
    func rest() async -> [ParsedEvent] {
        var result: [ParsedEvent] = []
        while let event = await next() { result.append(event) }
        return result
    }
}

extension APITestHarness {
    /// Opens an event stream for `user` directly through the handler (no router), runs its
    /// body in a task, and returns a reader of its events and the task.
    func openEventStream(
        _ user: String = "_u1", lastEventID: String? = nil, failAfter: Int? = nil
    ) async throws -> (reader: EventReader, task: Task<Void, any Error>) {
        var fields: HTTPFields = [:]
        if let lastEventID { fields[HeraldAPI.lastEventID] = lastEventID }
        let request = Request(
            head: HTTPRequest(
                method: .get, scheme: "http", authority: "localhost",
                path: Self.path("notifications/stream"), headerFields: fields),
            body: RequestBody(buffer: ByteBuffer()))
        let caller = Caller(user: user, container: Self.container, expiresAt: .distantFuture)
        let response = try await api.streams.open(request, caller: caller, requestID: "test")
        #expect(response.status == .ok)
        #expect(response.headers[.contentType] == "text/event-stream; charset=utf-8")
        let (stream, continuation) = AsyncStream.makeStream(of: String.self)
        let writer = RecordingWriter(chunks: continuation, failAfter: failAfter)
        let task = Task {
            try await response.body.write(writer)
        }
        return (EventReader(stream), task)
    }

    /// The change token right after `sequence` for `user`.
    func token(_ user: String = "_u1", after sequence: Int64) -> String {
        store.tokenSigner.token(recipient: user, container: Self.container, sequence: sequence).rawValue
    }
}
