import NIOCore
import NIOHPACK
import NIOHTTP2

/// The server end of one stand-in connection, above `NIOHTTP2Handler`: gathers each
/// stream's request (pseudo-headers, headers, body), and after each read burst answers the
/// requests it completed in one task, writing the answers back with one flush.
///
/// Hand-written over frames rather than Hummingbird's per-stream child channels: the
/// stand-in shares `herald bench push`'s process and cores with the client it measures,
/// and Hummingbird's per-request machinery was most of what the stand-in cost.
final class StandInStreamHandler: ChannelInboundHandler {
    typealias InboundIn = HTTP2Frame
    typealias OutboundOut = HTTP2Frame

    /// One request being received.
    struct Incoming: Sendable {
        var method = ""
        var path = ""
        var headers: [String: String] = [:]
        var body: [UInt8] = []
        var tooLarge = false
    }

    private let responder: StandInResponder
    private var context: ChannelHandlerContext?
    private var incoming: [Int32: Incoming] = [:]
    private var complete: [(Int32, Incoming)] = []
    private var window = ConnectionWindow()

    init(responder: StandInResponder) {
        self.responder = responder
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        let id = Int32(frame.streamID)
        switch frame.payload {
        case .headers(let block):
            var request = incoming.removeValue(forKey: id) ?? Incoming()
            for (name, value, _) in block.headers {
                switch name {
                case ":method": request.method = value
                case ":path": request.path = value
                case _ where name.hasPrefix(":"): break
                default: request.headers[name] = value  // lower-case: HTTP/2 refuses others
                }
            }
            if block.endStream { complete.append((id, request)) } else { incoming[id] = request }
        case .data(let payload):
            if let update = window.read(payload) {
                context.writeAndFlush(wrapOutboundOut(update), promise: nil)
            }
            guard var request = incoming.removeValue(forKey: id) else { return }
            if case .byteBuffer(let buffer) = payload.data {
                if request.body.count + buffer.readableBytes > StandInResponder.maxBodyBytes {
                    request.tooLarge = true
                } else {
                    request.body.append(contentsOf: buffer.readableBytesView)
                }
            }
            if payload.endStream { complete.append((id, request)) } else { incoming[id] = request }
        case .rstStream:
            incoming.removeValue(forKey: id)
        default:
            break
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        context.fireChannelReadComplete()
        guard !complete.isEmpty else { return }
        let batch = complete
        complete = []
        let responder = responder
        let bound = NIOLoopBound(self, eventLoop: context.eventLoop)
        let loop = context.eventLoop
        Task {
            var answers: [(Int32, StandInResponder.Answer)] = []
            answers.reserveCapacity(batch.count)
            for (id, request) in batch {
                let answer =
                    request.tooLarge
                    ? StandInResponder.apnsRefusal(413, "PayloadTooLarge")
                    : await responder.answer(method: request.method, path: request.path, headers: request.headers, body: request.body)
                answers.append((id, answer))
            }
            let written = answers
            loop.execute { bound.value.write(written) }
        }
    }

    /// Writes `answers`, each as HEADERS (and DATA when there is a body), and flushes once.
    private func write(_ answers: [(Int32, StandInResponder.Answer)]) {
        guard let context, context.channel.isActive else { return }
        for (id, answer) in answers {
            let streamID = HTTP2StreamID(id)
            var headers = HPACKHeaders()
            headers.add(name: ":status", value: String(answer.status))
            for (name, value) in answer.headers { headers.add(name: name, value: value) }
            if !answer.body.isEmpty { headers.add(name: "content-type", value: "application/json") }
            headers.add(name: "content-length", value: String(answer.body.count))
            context.write(
                wrapOutboundOut(HTTP2Frame(streamID: streamID, payload: .headers(.init(headers: headers, endStream: answer.body.isEmpty)))),
                promise: nil)
            if !answer.body.isEmpty {
                let body = HTTP2Frame.FramePayload.data(.init(data: .byteBuffer(ByteBuffer(bytes: answer.body)), endStream: true))
                context.write(wrapOutboundOut(HTTP2Frame(streamID: streamID, payload: body)), promise: nil)
            }
        }
        context.flush()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
