import FuzzSupport
import HeraldModel

/// libFuzzer entry: the input is read as each wire type with a fast codec (record change, match, subscription, badge count, notification read, schedule firing) by the fast codec
/// and by Foundation's Codable path; see `FastCodecDifferential`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWireCodec(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput.data(data, size)
    FastCodecDifferential.check(RecordChange.self, input)
    FastCodecDifferential.check(Match.self, input)
    FastCodecDifferential.check(Subscription.self, input)
    FastCodecDifferential.check(BadgeCount.self, input)
    FastCodecDifferential.check(NotificationRead.self, input)
    FastCodecDifferential.check(ScheduledFiring.self, input)
    return 0
}

@main
enum WireCodecFuzzer {
    static func main() { FuzzerDriver.run(fuzzWireCodec) }
}
