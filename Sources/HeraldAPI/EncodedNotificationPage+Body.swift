import HeraldReader
import Hummingbird

extension EncodedNotificationPage {
    /// `jsonBody`, byte for byte, written straight into one `ByteBuffer` sized up front:
    /// the HTTP answer without the intermediate `Data` and its copy (issue 13).
    func jsonBody(allocator: ByteBufferAllocator) -> ByteBuffer {
        let token = serverChangeToken.rawValue
        let size = notifications.reduce(64 + token.utf8.count) { $0 + $1.json.count + 1 }
        var buffer = allocator.buffer(capacity: size)
        buffer.writeStaticString(moreComing ? #"{"moreComing":true,"notifications":["# : #"{"moreComing":false,"notifications":["#)
        for (index, entry) in notifications.enumerated() {
            if index > 0 { buffer.writeInteger(UInt8(ascii: ",")) }
            buffer.writeBytes(entry.json)
        }
        // Tokens are base64url: nothing in them needs escaping.
        buffer.writeStaticString(#"],"serverChangeToken":""#)
        buffer.writeString(token)
        buffer.writeStaticString(#""}"#)
        return buffer
    }
}
