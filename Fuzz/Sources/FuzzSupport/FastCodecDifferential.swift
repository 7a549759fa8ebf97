import Foundation
import HeraldModel

/// The fast codec (`WireDecodable` / `WireEncodable`) against Foundation's Codable path on
/// one input: both decoders give the same value or the same error code, and a value that
/// decodes encodes to the same bytes both ways. A difference traps (a finding for libFuzzer).
public enum FastCodecDifferential {
    /// Checks `input` as a `Value`; returns the value when it decodes.
    @discardableResult
    public static func check<Value: WireDecodable & WireEncodable & Equatable>(_ type: Value.Type, _ input: Data) -> Value? {
        let codec = WireCodec()
        let fast = Result { () throws(ModelError) in try codec.decode(type, from: input) }
        let reference = Result { () throws(ModelError) in try codec.decodeWithFoundation(type, from: input) }
        switch (fast, reference) {
        case (.success(let value), .success(let expected)):
            guard value == expected else { fatalError("fast and Foundation decode \(describe(input)) differently") }
            let bytes = try? codec.encode(value)
            guard bytes == (try? codec.encodeWithFoundation(value)) else {
                fatalError("fast and Foundation encode the value of \(describe(input)) differently")
            }
            return value
        case (.failure(let error), .failure(let expected)):
            // Foundation reads a record's fields (a schedule's userInfo) in hash order, which changes from run to run:
            // with two bad fields either may be reported (a field's unreadable member name is
            // a malformedJSON without a path).
            let eitherField = underFields(error.path) || underFields(expected.path)
            let bothFailedInFields = eitherField
                && (error.code == .malformedJSON || expected.code == .malformedJSON
                    || (underFields(error.path) && underFields(expected.path)))
            // Open corner: a UTF-16/32 document holding U+0000 is refused by Foundation in some
            // cases and read in others; the fast reader refuses it (README, Fuzzing).
            let wideWithZero = input.contains(0) && (error.code == .malformedJSON || expected.code == .malformedJSON)
            guard error.code == expected.code || bothFailedInFields || wideWithZero else {
                fatalError("fast \(error.code) (\(error)) but Foundation \(expected.code) (\(expected)) for \(describe(input))")
            }
            return nil
        case (.success, .failure(let expected)):
            fatalError("fast decodes what Foundation rejects (\(expected)): \(describe(input))")
        case (.failure(let error), .success):
            fatalError("fast rejects (\(error)) what Foundation decodes: \(describe(input))")
        }
    }

    private static func underFields(_ path: String) -> Bool {
        path.contains("fields.") || path.contains("fields[") || path.contains("Fields.") || path.contains("Fields[")
            || path.contains("userInfo.") || path.contains("userInfo[")
    }

    private static func describe(_ input: Data) -> String {
        String(decoding: input.prefix(2000), as: UTF8.self).debugDescription
    }
}
