import HeraldModel

/// The one error type of `HeraldMatcher`: why a subscription was refused, in words a client
/// developer understands, with a stable code (CloudKit-like) and the subscription it concerns.
/// Made by this module only (its memberwise initializer is internal; `duplicate(_:of:)` for
/// directories kept elsewhere).
public struct MatcherError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Code: String, Sendable, Hashable {
        /// The subscription's type, database, zone or options are not allowed together.
        case invalidSubscription = "INVALID_SUBSCRIPTION"
        /// The predicate does not parse, or breaks CloudKit's rules in strict mode.
        case invalidPredicate = "INVALID_PREDICATE"
        /// The same owner already has a subscription with this definition.
        case duplicateSubscription = "DUPLICATE_SUBSCRIPTION"
    }

    public var code: Code
    public var reason: String
    public var subscriptionID: String

    public var description: String { "subscription '\(subscriptionID)': \(reason)" }
}

extension MatcherError {
    /// `subscription` duplicates `other`, another subscription of the same owner with the same
    /// definition (`SubscriptionRules.definition`): CloudKit's `DUPLICATE_SUBSCRIPTION`.
    public static func duplicate(_ subscription: Subscription, of other: Subscription) -> MatcherError {
        MatcherError(
            code: .duplicateSubscription, reason: "subscription is duplicate of '\(other.subscriptionID)'",
            subscriptionID: subscription.subscriptionID)
    }
}
