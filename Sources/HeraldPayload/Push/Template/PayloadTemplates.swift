import HeraldModel
import Synchronization

/// The payload templates (``PayloadTemplate``) of the subscriptions a composer has composed
/// for: made on a subscription's first notification, used for the next ones, made again
/// when its notification info changes.
///
/// A class so that copies of a ``NotificationComposer`` share it (the compose stage holds one
/// composer in its `Delivery`); `Mutex` makes it `Sendable`. Bounded: beyond ``capacity``
/// templates it starts over (subscriptions come from user data), like the catalog's chain memo.
public final class PayloadTemplates: Sendable {
    /// The default bound: a template takes about twice its payload's fixed bytes.
    public static let standardCapacity = 4096

    /// A template's identity: the subscription, the notification kind and whether a badge is sent.
    struct Key: Hashable {
        var subscriptionID: String
        var container: String
        var owner: String
        var type: NotificationType
        var hasBadge: Bool
    }

    /// The most templates kept.
    public let capacity: Int
    private let templates = Mutex<[Key: PayloadTemplate]>([:])

    /// An empty cache of at most `capacity` templates (at least 1).
    public init(capacity: Int = PayloadTemplates.standardCapacity) {
        self.capacity = max(1, capacity)
    }

    /// The number of templates held now.
    public var count: Int {
        templates.withLock { $0.count }
    }

    /// The template of `match`'s subscription for payloads of `kind`, made now when there is
    /// none or the subscription changed.
    func template(for match: Match, kind: PushPayload.Kind, hasBadge: Bool) -> PayloadTemplate {
        let subscription = match.subscription
        let key = Key(
            subscriptionID: subscription.subscriptionID, container: subscription.container,
            owner: subscription.ownerRecordName, type: match.notificationType, hasBadge: hasBadge)
        if let cached = templates.withLock({ $0[key] }), cached.serves(subscription) { return cached }
        let made = PayloadTemplate(subscription: subscription, kind: kind, hasBadge: hasBadge)
        templates.withLock { templates in
            if templates.count >= capacity, templates[key] == nil { templates.removeAll(keepingCapacity: true) }
            templates[key] = made
        }
        return made
    }
}
