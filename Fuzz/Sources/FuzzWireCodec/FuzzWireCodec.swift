import FuzzSupport
import HeraldModel

/// libFuzzer entry: the input is read as a record change and as a match by the fast codec
/// and by Foundation's Codable path; see `FastCodecDifferential`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWireCodec(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput.data(data, size)
    FastCodecDifferential.check(RecordChange.self, input)
    FastCodecDifferential.check(Match.self, input)
    FastCodecDifferential.check(Subscription.self, input)
    return 0
}

@main
enum WireCodecFuzzer {
    static func main() { FuzzerDriver.run(fuzzWireCodec) }
}
