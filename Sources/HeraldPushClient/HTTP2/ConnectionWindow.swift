import NIOHTTP2

/// The connection-level receive window of a frame-level HTTP/2 handler. `NIOHTTP2Handler`
/// used without its stream multiplexer does not give the window back (the multiplexer
/// does), so a handler that reads DATA frames itself sends `WINDOW_UPDATE`s on the root
/// stream: once half the initial 65,535 bytes have been read, it returns them.
///
/// Stream windows are not replenished: every body these handlers read is at most
/// `ProviderExchange.maxBodyBytes` (64 KB, within one stream's initial window).
struct ConnectionWindow {
    /// Flow-controlled bytes read since the last `WINDOW_UPDATE`.
    private var consumed = 0

    /// Notes a DATA frame read; returns the root-stream `WINDOW_UPDATE` to send, if one is due.
    mutating func read(_ data: HTTP2Frame.FramePayload.Data) -> HTTP2Frame? {
        consumed += data.data.readableBytes + (data.paddingBytes.map { $0 + 1 } ?? 0)
        guard consumed >= 32_768 else { return nil }
        defer { consumed = 0 }
        return HTTP2Frame(streamID: .rootStream, payload: .windowUpdate(windowSizeIncrement: consumed))
    }
}
