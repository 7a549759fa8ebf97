import HeraldReader

/// The bounds of the HTTP API. Every value has a documented default; `init()` gives them.
public struct APILimits: Sendable, Hashable {
    /// The largest request body accepted, in bytes; larger ones are refused with
    /// `REQUEST_TOO_LARGE` (413) while reading, before they are buffered. Default 1 MiB.
    public var maximumBodyBytes: Int
    /// How often an idle event stream sends a comment line (`: keep-alive`), which keeps
    /// proxies from closing it and finds clients that went away. Default 15 seconds.
    public var heartbeatInterval: Duration
    /// After how long an event stream is ended by the server (the client reconnects with
    /// `Last-Event-ID` and misses nothing), so long-lived connections spread over
    /// instances again. `nil`: never. Default `nil`.
    public var streamLifetime: Duration?
    /// How many notifications an event stream reads from the store at a time (1…400).
    /// Default 100.
    public var streamBatchSize: Int
    /// The most event streams open at once on this instance; more are refused with
    /// `SERVICE_UNAVAILABLE` (503). Default 10 000.
    public var maximumOpenStreams: Int
    /// The `retry:` hint (reconnection delay) sent at the start of every event stream.
    /// Default 2 seconds.
    public var streamRetryHint: Duration

    /// The defaults.
    public init() {
        self.init(maximumBodyBytes: 1 << 20)
    }

    /// Limits with the given values; the rest default.
    public init(
        maximumBodyBytes: Int = 1 << 20, heartbeatInterval: Duration = .seconds(15), streamLifetime: Duration? = nil,
        streamBatchSize: Int = 100, maximumOpenStreams: Int = 10_000, streamRetryHint: Duration = .seconds(2)
    ) {
        self.maximumBodyBytes = maximumBodyBytes
        self.heartbeatInterval = heartbeatInterval
        self.streamLifetime = streamLifetime
        self.streamBatchSize = streamBatchSize
        self.maximumOpenStreams = maximumOpenStreams
        self.streamRetryHint = streamRetryHint
    }

    /// `streamBatchSize` brought into 1…400 (`NotificationStore.maximumResultsLimit`).
    var effectiveStreamBatchSize: Int { min(max(streamBatchSize, 1), NotificationStore.maximumResultsLimit) }
}
