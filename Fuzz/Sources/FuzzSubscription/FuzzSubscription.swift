import FuzzSupport
import HeraldMatcher
import HeraldModel

/// libFuzzer entry: the input is the JSON of a subscription (the `subscriptions` topic's
/// value, the API's body); see `WireRoundTrip`. One that decodes goes through the match
/// stage's path: validated into an index, then matched against every sample change.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSubscription(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let subscription = WireRoundTrip.check(Subscription.self, FuzzInput.data(data, size)) else { return 0 }
    var index = SubscriptionIndex()
    guard (try? index.upsert(subscription)) != nil else { return 0 }
    for change in Samples.changes { _ = index.matches(for: change) }
    return 0
}

@main
enum SubscriptionFuzzer {
    static func main() { FuzzerDriver.run(fuzzSubscription) }
}
