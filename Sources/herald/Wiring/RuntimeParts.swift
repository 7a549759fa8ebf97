import HeraldPipeline
import HeraldReader
import Synchronization

/// What the stages of one process share with each other and with the HTTP API (the match
/// stage's subscription table, the reader's store), filled in as the stages are built.
final class RuntimeParts: Sendable {
    private struct Parts {
        var table: SubscriptionTable?
        var store: NotificationStore?
    }

    private let parts = Mutex(Parts())

    var table: SubscriptionTable? {
        get { parts.withLock { $0.table } }
        set { parts.withLock { $0.table = newValue } }
    }

    var store: NotificationStore? {
        get { parts.withLock { $0.store } }
        set { parts.withLock { $0.store = newValue } }
    }
}
