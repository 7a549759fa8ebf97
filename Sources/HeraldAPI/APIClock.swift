import Foundation
import HeraldModel

/// The API's clock: what `readAt`, `requestedAt`, a schedule's `createdAt` and the 64
/// limit, and a location's default `timestamp` are stamped with.
struct APIClock: Sendable {
    let now: @Sendable () -> Date

    /// Milliseconds since 1970 by `now`.
    var milliseconds: Int64 { EpochMilliseconds.of(now()) }
}
