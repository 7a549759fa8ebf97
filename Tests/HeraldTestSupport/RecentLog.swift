import Logging
import Synchronization

/// The last log lines of a test's services (notice and above), kept in memory so a test
/// that waited in vain can say what the stages were doing; `make test`'s output keeps the
/// failure messages, not the services' logs.
public final class RecentLog: Sendable {
    private let lines = Mutex<[String]>([])
    private let limit: Int

    public init(limit: Int = 100) { self.limit = limit }

    public func append(_ line: String) {
        lines.withLock { lines in
            lines.append(line)
            if lines.count > limit { lines.removeFirst(lines.count - limit) }
        }
    }

    /// The lines kept, oldest first, one per line.
    public var text: String { lines.withLock { $0.isEmpty ? "(no log lines at notice or above)" : $0.joined(separator: "\n") } }

    /// Whether a kept line contains `fragment`: a signal that the services got somewhere.
    public func contains(_ fragment: String) -> Bool { lines.withLock { $0.contains { $0.contains(fragment) } } }

    /// A handler that appends to this log.
    public func handler(label: String) -> some LogHandler { Handler(log: self, label: label) }

    private struct Handler: LogHandler {
        let log: RecentLog
        let label: String
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .notice

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let context = metadata.merging(event.metadata ?? [:]) { _, new in new }
                .sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            log.append("\(event.level) \(context) \(event.message)")
        }
    }
}
