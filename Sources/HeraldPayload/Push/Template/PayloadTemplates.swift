import HeraldModel
import Synchronization

/// The payload templates (``PayloadTemplate``) of the subscriptions a composer has composed
/// for: made on a subscription's second notification (``TemplateAdmission``), used for the
/// next ones, made again when its notification info changes.
///
/// A class so that copies of a ``NotificationComposer`` share it (the compose stage holds one
/// composer in its `Delivery`). Bounded: beyond ``capacity`` templates it starts over
/// (subscriptions come from user data), a `BoundedMemo` like the catalog's fallback chains.
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
        // Every part is hashed (synthesized): subscription IDs are chosen per user and apps
        // give every user the same ones ("messages"), so a key hashed without its owner
        // would put all of an app's users in one bucket.
    }

    private let templates: BoundedMemo<Key, PayloadTemplate>
    private let admission: TemplateAdmission
    /// The keys seen without a template, in as many slots as templates are kept (8 bytes
    /// each): a subscription seen again only after that many others would most likely
    /// find its template forgotten too.
    private let sightings: Mutex<SightingFilter>

    /// The most templates kept.
    public var capacity: Int { templates.capacity }

    /// An empty cache of at most `capacity` templates (at least 1), made as `admission` says.
    public init(capacity: Int = PayloadTemplates.standardCapacity, admission: TemplateAdmission = .secondNotification) {
        templates = BoundedMemo(capacity: capacity)
        self.admission = admission
        sightings = Mutex(SightingFilter(slots: admission == .firstNotification ? 0 : capacity))
    }

    /// The number of templates held now.
    public var count: Int { templates.count }

    /// The template of `match`'s subscription for payloads of `kind`, made now when there is
    /// none and the subscription earned one (``TemplateAdmission``), or when it changed;
    /// `nil`: compose directly.
    func template(for match: Match, kind: PushPayload.Kind, hasBadge: Bool) -> PayloadTemplate? {
        // `match.subscription` read in place each time: a local copy of the subscription
        // retains and releases each of its strings (perf).
        let key = Key(
            subscriptionID: match.subscription.subscriptionID, container: match.subscription.container,
            owner: match.subscription.ownerRecordName, type: match.notificationType, hasBadge: hasBadge)
        if let cached = templates[key] {
            if cached.serves(match) { return cached }
        } else if admission == .secondNotification {
            let hash = key.hashValue
            guard sightings.withLock({ $0.sawBefore(hash) }) else { return nil }
        }
        let made = PayloadTemplate(subscription: match.subscription, kind: kind, hasBadge: hasBadge)
        templates.store(made, for: key)
        return made
    }
}
