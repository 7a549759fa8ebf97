import HeraldAPI
import HeraldPipeline
import HeraldReader
import Synchronization

/// What the stages of one process share with each other and with the HTTP API (the match
/// stage's subscription table, the reader's store), filled in as the stages are built.
final class RuntimeParts: Sendable {
    private struct Parts {
        var table: SubscriptionTable?
        var store: NotificationStore?
        var httpPort: Int?
    }

    private let parts = Mutex(Parts())
    /// Wakes the API's event streams when the reader stored something.
    let notifier = StreamNotifier()

    var table: SubscriptionTable? {
        get { parts.withLock { $0.table } }
        set { parts.withLock { $0.table = newValue } }
    }

    /// The port the HTTP server listens on, once it runs (useful with `--http-port 0`).
    var httpPort: Int? {
        get { parts.withLock { $0.httpPort } }
        set { parts.withLock { $0.httpPort = newValue } }
    }

    var store: NotificationStore? {
        get { parts.withLock { $0.store } }
        set { parts.withLock { $0.store = newValue } }
    }
}
