import Foundation
import Hummingbird

/// The text/event-stream framing (WHATWG HTML §9.2) of what Herald sends: events with an
/// `id:` (a change token), an `event:` name and one line of JSON `data:`, comment lines
/// for heartbeats, and the `retry:` hint.
enum ServerSentEvent {
    /// `event: notification` — one notification; its id is the change token right after it.
    static let notification = "notification"
    /// `event: ready` — the first event of every stream: its id is the start position,
    /// its data `{"serverChangeToken": "<the same token>"}`.
    static let ready = "ready"
    /// `event: error` — the stream cannot go on (the position expired, the store failed);
    /// data is the JSON error body; the server then ends the response.
    static let error = "error"

    /// Appends one event. `data` must not contain CR or LF (compact JSON never does).
    static func append(id: String?, event: String, data: some Sequence<UInt8>, to buffer: inout ByteBuffer) {
        if let id { buffer.writeString("id: \(id)\n") }
        buffer.writeString("event: \(event)\ndata: ")
        buffer.writeBytes(data)
        buffer.writeString("\n\n")
    }

    /// A comment line, ignored by clients: the heartbeat.
    static func comment(_ text: String) -> ByteBuffer {
        ByteBuffer(string: ": \(text)\n\n")
    }

    /// The reconnection delay hint, in whole milliseconds.
    static func retry(_ delay: Duration) -> String {
        let (seconds, attoseconds) = delay.components
        return "retry: \(max(0, seconds * 1000 + attoseconds / 1_000_000_000_000_000))\n\n"
    }
}
