import FuzzSupport
import HeraldModel

/// libFuzzer entry: the input is the JSON of a record change (the `changes` topic's value);
/// see `WireRoundTrip`. One that decodes is matched against the sample subscriptions, as
/// the match stage does.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRecordChange(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let change = WireRoundTrip.check(RecordChange.self, FuzzInput.data(data, size)) else { return 0 }
    _ = Samples.index.matches(for: change)
    return 0
}

@main
enum RecordChangeFuzzer {
    static func main() { FuzzerDriver.run(fuzzRecordChange) }
}
