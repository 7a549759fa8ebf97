import NIOCore
import NIOHPACK
import NIOHTTP1
import NIOHTTP2

/// The client end of one HTTP/2 provider connection, on its event loop, above
/// `NIOHTTP2Handler` (which does the framing, HPACK, flow control and holds back streams
/// beyond the server's `SETTINGS_MAX_CONCURRENT_STREAMS`).
///
/// Hand-written over frames rather than per-stream child channels (NIOHTTP2's
/// multiplexer) or async-http-client: each request is two frame writes into the
/// connection, a drain writes everything its `ProviderOutbox` holds and flushes once, and an
/// answer resumes its caller when its stream ends — no channel, pipeline or promise per
/// request. Every request ends: with the answer, a reset, the connection's end, or its
/// deadline (checked every 100 ms; a late stream is reset with CANCEL).
final class ProviderStreamHandler: ChannelInboundHandler {
    typealias InboundIn = HTTP2Frame
    typealias OutboundOut = HTTP2Frame

    /// The last client stream ID used before the connection asks to be replaced.
    static let lastStreamID: Int32 = 1 << 30

    /// A request written and not yet answered.
    private struct Stream {
        var deadline: NIODeadline
        var reply: CheckedContinuation<ProviderExchange.Outcome, Never>
        var status: Int?
        var headers = HTTPHeaders()
        var body: [UInt8] = []
    }

    private let outbox: ProviderOutbox
    private var context: ChannelHandlerContext?
    private var streams: [Int32: Stream] = [:]
    private var nextStreamID: Int32 = 1
    private var window = ConnectionWindow()
    private var sweep: RepeatedTask?
    /// Set once the connection takes no more requests (closed, GOAWAY, IDs used up).
    private var closing: String?

    init(outbox: ProviderOutbox) {
        self.outbox = outbox
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        let bound = NIOLoopBound(self, eventLoop: context.eventLoop)
        sweep = context.eventLoop.scheduleRepeatedTask(initialDelay: .milliseconds(100), delay: .milliseconds(100)) { _ in
            bound.value.expire()
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        end("the connection's pipeline was torn down")
        self.context = nil
    }

    /// Writes every queued request and flushes once.
    func drain() {
        let batch = outbox.takeAll()
        guard !batch.isEmpty else { return }
        guard let context, closing == nil else {
            for request in batch { request.reply.resume(returning: .failed(closing ?? "the connection is closed")) }
            return
        }
        for request in batch {
            guard nextStreamID <= Self.lastStreamID else {
                request.reply.resume(returning: .failed("the connection used up its stream IDs"))
                stopTakingRequests("the connection used up its stream IDs")
                continue
            }
            let id = HTTP2StreamID(nextStreamID)
            streams[nextStreamID] = Stream(deadline: request.deadline, reply: request.reply)
            nextStreamID += 2
            let hasBody = request.body.readableBytes > 0
            context.write(
                wrapOutboundOut(HTTP2Frame(streamID: id, payload: .headers(.init(headers: request.headers, endStream: !hasBody)))),
                promise: nil)
            if hasBody {
                context.write(
                    wrapOutboundOut(HTTP2Frame(streamID: id, payload: .data(.init(data: .byteBuffer(request.body), endStream: true)))),
                    promise: nil)
            }
        }
        context.flush()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        let id = Int32(frame.streamID)
        switch frame.payload {
        case .headers(let block):
            guard streams[id] != nil else { return }
            if let status = block.headers.first(name: ":status").flatMap({ Int($0) }), streams[id]?.status == nil {
                guard status >= 200 else { return }  // informational: the answer follows
                streams[id]?.status = status
            }
            for (name, value, _) in block.headers where !name.hasPrefix(":") { streams[id]?.headers.add(name: name, value: value) }
            if block.endStream { answer(id) }
        case .data(let payload):
            if let update = window.read(payload) {
                context.writeAndFlush(wrapOutboundOut(update), promise: nil)
            }
            guard streams[id] != nil else { return }
            if case .byteBuffer(let buffer) = payload.data {
                let room = ProviderExchange.maxBodyBytes - (streams[id]?.body.count ?? 0)
                if room > 0 { streams[id]?.body.append(contentsOf: buffer.readableBytesView.prefix(room)) }
            }
            if payload.endStream { answer(id) }
        case .rstStream(let code):
            fail(id, "the provider reset the stream: \(code)")
        case .goAway(let lastStreamID, let code, _):
            stopTakingRequests("the provider is closing the connection (GOAWAY \(code))")
            // Streams above `lastStreamID` were never processed: safe to retry elsewhere.
            for stream in streams.keys where stream > Int32(lastStreamID) {
                fail(stream, "the provider closed the connection before this stream (GOAWAY \(code))")
            }
            closeIfIdle()
        default:
            break
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        end("connection failed: \(error)")
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        end("the connection closed")
        context.fireChannelInactive()
    }

    /// Resolves stream `id` with its answer.
    private func answer(_ id: Int32) {
        guard let stream = streams.removeValue(forKey: id) else { return }
        if let status = stream.status {
            stream.reply.resume(returning: .answered(status: status, headers: stream.headers, body: stream.body))
        } else {
            stream.reply.resume(returning: .failed("the provider ended the stream without a :status"))
        }
        closeIfIdle()
    }

    /// Resolves stream `id` as failed with `reason`.
    private func fail(_ id: Int32, _ reason: String) {
        streams.removeValue(forKey: id)?.reply.resume(returning: .failed(reason))
        closeIfIdle()
    }

    /// Fails and resets the streams past their deadline.
    private func expire() {
        let now = NIODeadline.now()
        let late = streams.filter { $0.value.deadline <= now }.map(\.key)
        guard !late.isEmpty else { return }
        for id in late {
            fail(id, "no answer before the timeout")
            context?.write(wrapOutboundOut(HTTP2Frame(streamID: HTTP2StreamID(id), payload: .rstStream(.cancel))), promise: nil)
        }
        context?.flush()
    }

    /// Takes no more requests; the pool opens a new connection for the next ones.
    private func stopTakingRequests(_ reason: String) {
        if closing == nil { closing = reason }
        for request in outbox.close(reason) { request.reply.resume(returning: .failed(reason)) }
    }

    /// Closes a connection that takes no more requests once its last stream is answered.
    private func closeIfIdle() {
        if closing != nil, streams.isEmpty { context?.close(promise: nil) }
    }

    /// Fails everything still open or queued: the connection is gone.
    private func end(_ reason: String) {
        sweep?.cancel()
        sweep = nil
        stopTakingRequests(reason)
        let open = streams
        streams = [:]
        for stream in open.values { stream.reply.resume(returning: .failed(closing ?? reason)) }
    }
}
