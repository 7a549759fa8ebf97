import Foundation
import HeraldModel

/// The property every wire format must have: what decodes, encodes, and the encoding
/// decodes to the same value (a replayed message means the same thing).
public enum WireRoundTrip {
    /// Decodes `input` as `type`; decoding may throw, but a value that decodes must survive
    /// a round trip through `WireCodec`, or this traps (a finding for libFuzzer).
    /// - Returns: the decoded value, `nil` when `input` does not decode.
    @discardableResult
    public static func check<Value: Codable & Equatable>(_ type: Value.Type, _ input: Data) -> Value? {
        let codec = WireCodec()
        guard let value = try? codec.decode(type, from: input) else { return nil }
        let encoded: Data
        do {
            encoded = try codec.encode(value)
        } catch {
            fatalError("a decoded \(type) does not encode: \(error)")
        }
        let decoded: Value
        do {
            decoded = try codec.decode(type, from: encoded)
        } catch {
            fatalError("\(String(decoding: encoded, as: UTF8.self)) does not decode: \(error)")
        }
        guard decoded == value else {
            fatalError("\(String(decoding: input, as: UTF8.self)) changes when re-encoded as \(String(decoding: encoded, as: UTF8.self))")
        }
        return value
    }
}
