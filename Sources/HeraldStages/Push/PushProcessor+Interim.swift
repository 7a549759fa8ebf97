import HeraldModel
import HeraldPush

// INTEGRATION POINT (push15): this file is the push stage's stand-in for push15's
// `PushAction(response:platform:)` and `PushRetryPolicy`. Once those are merged, replace the
// bodies of `action(for:platform:)` and `retryDelay(attempt:retryAfterSeconds:jitterSeed:)`
// with calls to them and delete the rest; nothing else in the stage classifies responses.
extension PushProcessor {
    /// What to do with a provider's answer (minimal rules of the table).
    static func action(for response: ProviderResponse, platform: Device.Platform) -> PushAction {
        switch response {
        case .accepted:
            return .sent
        case .unreachable:
            return .retry(afterSeconds: nil)
        case .rejected(let status, let reason, let timestamp, let retryAfter):
            switch (status, reason) {
            case (429, _), (500, _), (502, _), (503, _), (504, _):
                return .retry(afterSeconds: retryAfter)
            case (410, _), (400, "BadDeviceToken"), (400, "DeviceTokenNotForTopic"), (_, "UNREGISTERED"),
                (400, "INVALID_ARGUMENT"):
                return .removeDevice(reason: reason, observedAt: timestamp)
            case (403, _):
                return .pauseApp(reason: "\(status) \(reason)")
            default:
                return .deadLetter(reason: "\(status) \(reason)")
            }
        }
    }

    /// Milliseconds before attempt `attempt + 1`: the provider's `Retry-After` when given,
    /// otherwise 1 s doubling per attempt up to 5 minutes, with ±20 % jitter derived from
    /// `jitterSeed` (deterministic: no random source in the stage).
    static func retryDelay(attempt: Int, retryAfterSeconds: Int?, jitterSeed: String) -> Int64 {
        if let retryAfterSeconds, retryAfterSeconds >= 0 { return Int64(min(retryAfterSeconds, 3600)) * 1000 }
        let base = min(Int64(1000) << Int64(min(max(attempt, 1) - 1, 20)), 300_000)
        var hash: UInt64 = 14_695_981_039_346_656_037
        for byte in jitterSeed.utf8 { hash = (hash ^ UInt64(byte)) &* 1_099_511_628_211 }
        let permille = Int64(hash % 401) - 200  // -200…200 ‰
        return base + base * permille / 1000
    }
}
