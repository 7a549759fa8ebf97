import FuzzSupport
import HeraldModel

/// libFuzzer entry: the input is the JSON of a schedule (the API's and `herald schedule`'s body); see `WireRoundTrip`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSchedule(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    WireRoundTrip.check(Schedule.self, FuzzInput.data(data, size))
    return 0
}

@main
enum ScheduleFuzzer {
    static func main() { FuzzerDriver.run(fuzzSchedule) }
}
