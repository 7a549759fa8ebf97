import FuzzSupport
import HeraldModel

/// libFuzzer entry: the input is the JSON of a record change (the `changes` topic's value); see `WireRoundTrip`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRecordChange(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    WireRoundTrip.check(RecordChange.self, FuzzInput.data(data, size))
    return 0
}

@main
enum RecordChangeFuzzer {
    static func main() { FuzzerDriver.run(fuzzRecordChange) }
}
