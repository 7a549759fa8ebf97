import Foundation
import HeraldModel
import HeraldReader
import Hummingbird

/// The body of one `GET …/notifications/stream` response: a `ready` event at the start
/// position, then every notification after it as a `notification` event whose id is the
/// change token right after it, in sequence order, each exactly once; heartbeats while
/// idle. It ends when the client goes away (a write fails), the task is cancelled, the
/// notifier finishes, the configured lifetime passes, or the store cannot go on (an
/// `error` event first).
///
/// Owns its listener: it closes it when it ends, or when it is released unrun.
final class NotificationEventStream: Sendable {
    let store: NotificationStore
    let listener: StreamListener
    let limits: APILimits
    /// Where the stream starts: the `ready` event's id.
    let start: ChangeToken
    /// The first page after `start`, read before the response began so that an invalid
    /// or expired start is answered with an HTTP error instead of an event.
    let firstPage: EncodedNotificationPage
    /// The request's ID, for the `uuid` of an `error` event.
    let requestID: String

    init(
        store: NotificationStore, listener: StreamListener, limits: APILimits, start: ChangeToken,
        firstPage: EncodedNotificationPage, requestID: String
    ) {
        self.requestID = requestID
        self.store = store
        self.listener = listener
        self.limits = limits
        self.start = start
        self.firstPage = firstPage
    }

    deinit {
        listener.close()
    }

    private var stream: StreamID { listener.stream }

    /// Writes the events until the stream ends, then finishes the response.
    /// - Throws: when a write fails (the client went away).
    func run(writer: inout any ResponseBodyWriter) async throws {
        defer { listener.close() }
        let clock = ContinuousClock()
        let deadline = limits.streamLifetime.map { clock.now.advanced(by: $0) }
        var buffer = ByteBuffer()
        buffer.writeString(ServerSentEvent.retry(limits.streamRetryHint))
        ServerSentEvent.append(
            id: start.rawValue, event: ServerSentEvent.ready, data: Data(#"{"serverChangeToken":"\#(start.rawValue)"}"#.utf8),
            to: &buffer)
        var page = firstPage
        streaming: while true {
            for entry in page.notifications {
                let id = store.tokenSigner.token(recipient: stream.recipient, container: stream.container, sequence: entry.sequence)
                ServerSentEvent.append(id: id.rawValue, event: ServerSentEvent.notification, data: entry.json, to: &buffer)
            }
            if buffer.readableBytes > 0 {
                try await writer.write(buffer)
                buffer.clear()
            }
            let position = page.serverChangeToken
            if !page.moreComing {
                guard try await waitForGrowth(writer: &writer, clock: clock, deadline: deadline) else { break streaming }
            }
            do {
                page = try await store.fetchEncoded(
                    recipient: stream.recipient, container: stream.container, after: position,
                    limit: limits.effectiveStreamBatchSize)
            } catch {
                let failure = APIError.from(error)
                let body = ErrorBody(failure, requestID: requestID)
                ServerSentEvent.append(id: nil, event: ServerSentEvent.error, data: body.json, to: &buffer)
                try await writer.write(buffer)
                break streaming
            }
        }
        try await writer.finish(nil)
    }

    /// Sleeps until the stream grows (`true`) or the event stream must end (`false`),
    /// sending a heartbeat comment every `heartbeatInterval` meanwhile.
    private func waitForGrowth(
        writer: inout any ResponseBodyWriter, clock: ContinuousClock, deadline: ContinuousClock.Instant?
    ) async throws -> Bool {
        while !Task.isCancelled {
            var timeout = limits.heartbeatInterval
            if let deadline {
                let left = clock.now.duration(to: deadline)
                guard left > .zero else { return false }
                timeout = min(timeout, left)
            }
            switch await listener.wait(timeout: timeout) {
            case .grew:
                return true
            case .closed:
                return false
            case .timedOut:
                if let deadline, clock.now >= deadline { return false }
                try await writer.write(ServerSentEvent.comment("keep-alive"))
            }
        }
        return false
    }
}
