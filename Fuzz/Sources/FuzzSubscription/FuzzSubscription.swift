import FuzzSupport
import HeraldModel

/// libFuzzer entry: the input is the JSON of a subscription (the `subscriptions` topic's value, the API's body); see `WireRoundTrip`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSubscription(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    WireRoundTrip.check(Subscription.self, FuzzInput.data(data, size))
    return 0
}

@main
enum SubscriptionFuzzer {
    static func main() { FuzzerDriver.run(fuzzSubscription) }
}
