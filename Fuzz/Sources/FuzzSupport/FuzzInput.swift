import Foundation

/// The bytes libFuzzer hands to `LLVMFuzzerTestOneInput`.
public enum FuzzInput {
    /// The input as `Data`.
    public static func data(_ start: UnsafePointer<UInt8>?, _ count: Int) -> Data {
        Data(UnsafeBufferPointer(start: start, count: count))
    }

    /// The input as text (invalid UTF-8 repaired, as a server reading a request would).
    public static func text(_ start: UnsafePointer<UInt8>?, _ count: Int) -> String {
        String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    }
}
