import HeraldModel
import HeraldReader
import Hummingbird

/// `…/notifications/stream`: the caller's notifications as server-sent events.
struct StreamRoutes: Sendable {
    let store: NotificationStore
    let notifier: StreamNotifier
    let limits: APILimits

    /// `GET stream` under the collection's path.
    var collection: RouteCollection<HeraldRequestContext> {
        RouteCollection(context: HeraldRequestContext.self)
            .get("stream", use: open)
    }

    /// `GET notifications/stream`: server-sent events.
    ///
    /// Start position: the `Last-Event-ID` header (a reconnect), else the `since` query
    /// parameter (a change token, typically the `serverChangeToken` of a fetch), else *now*
    /// — only notifications that arrive after the connection. Every stream begins with a
    /// `ready` event whose id is that start position, so a client that reconnects before
    /// any notification still resumes exactly. An invalid, foreign or expired start is
    /// answered with the JSON error (400 / 410) before any event.
    @Sendable func open(_ request: Request, context: HeraldRequestContext) async throws -> Response {
        try await open(request, caller: context.requireCaller(), requestID: context.requestID)
    }

    /// Opens the event stream of `caller` (see `open(_:context:)`).
    func open(_ request: Request, caller: Caller, requestID: String) async throws -> Response {
        let header = request.headers[HeraldAPI.lastEventID].flatMap { $0.isEmpty ? nil : $0 }
        let given = header ?? request.uri.queryParameters.get("since")
        let stream = StreamID(recipient: caller.user, container: caller.container)
        // Listen before the first read, so growth between that read and the first wait wakes it.
        guard let listener = notifier.listen(to: stream, limit: limits.maximumOpenStreams) else {
            throw APIError(.serviceUnavailable, "too many event streams are open; retry later")
        }
        do {
            let start: ChangeToken
            if let given, !given.isEmpty {
                start = ChangeToken(rawValue: given)
            } else {
                let latest = try await store.latestSequence(recipient: stream.recipient, container: stream.container)
                start = store.tokenSigner.token(recipient: stream.recipient, container: stream.container, sequence: latest ?? -1)
            }
            let firstPage = try await store.fetchEncoded(
                recipient: stream.recipient, container: stream.container, after: start,
                limit: limits.effectiveStreamBatchSize)
            let events = NotificationEventStream(
                store: store, listener: listener, limits: limits, start: start, firstPage: firstPage, requestID: requestID)
            return Response(
                status: .ok,
                headers: [
                    .contentType: "text/event-stream; charset=utf-8", .cacheControl: "no-cache",
                    HeaderName("X-Accel-Buffering")!: "no",
                ],
                body: ResponseBody { writer in try await events.run(writer: &writer) })
        } catch {
            listener.close()
            throw error
        }
    }
}
