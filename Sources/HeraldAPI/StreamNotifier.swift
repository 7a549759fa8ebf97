import HeraldReader
import Synchronization

/// Wakes server-sent-event streams when their notification stream grows.
///
/// The reader service calls `streamsGrew(_:)` after each batch it applied (with
/// `StoreChanges.grownStreams.keys`); every open event stream of those users then reads
/// what is new from the store. Nothing polls: an idle event stream sleeps until it is woken
/// or its heartbeat is due. Memory is bounded: one flag per open event stream, however
/// fast notifications arrive.
///
/// Thread-safe; share one instance between the reader service and `HeraldAPI`. Call
/// `finish()` when the server shuts down gracefully, so open event streams end and the
/// HTTP server can drain.
public final class StreamNotifier: Sendable {
    private struct State {
        var listeners: [StreamID: [ObjectIdentifier: StreamListener]] = [:]
        var count = 0
        var isFinished = false
    }

    private let state = Mutex(State())

    /// Creates a notifier with no listeners.
    public init() {}

    /// Wakes every event stream that follows one of `streams`. Cheap when nobody listens:
    /// one dictionary lookup per stream.
    public func streamsGrew(_ streams: some Sequence<StreamID>) {
        var woken: [StreamListener] = []
        state.withLock { state in
            guard !state.listeners.isEmpty else { return }
            for stream in streams {
                if let listeners = state.listeners[stream] { woken.append(contentsOf: listeners.values) }
            }
        }
        for listener in woken { listener.signal() }
    }

    /// Ends every open event stream and refuses new ones (they are answered
    /// `SERVICE_UNAVAILABLE`). Call it when graceful shutdown begins.
    public func finish() {
        let all: [StreamListener] = state.withLock { state in
            state.isFinished = true
            return state.listeners.values.flatMap(\.values)
        }
        for listener in all { listener.close() }
    }

    /// How many event streams are open.
    public var openStreams: Int { state.withLock { $0.count } }

    /// A listener for `stream`, registered before the event stream first reads the store
    /// so that no growth between that read and the first wait is missed; `nil` when
    /// `limit` streams are already open or the notifier has finished. Close it when done.
    func listen(to stream: StreamID, limit: Int) -> StreamListener? {
        let listener = StreamListener(stream: stream) { [weak self] listener in self?.remove(listener) }
        let added = state.withLock { state in
            guard !state.isFinished, state.count < limit else { return false }
            state.listeners[stream, default: [:]][ObjectIdentifier(listener)] = listener
            state.count += 1
            return true
        }
        return added ? listener : nil
    }

    private func remove(_ listener: StreamListener) {
        state.withLock { state in
            guard state.listeners[listener.stream]?.removeValue(forKey: ObjectIdentifier(listener)) != nil else { return }
            state.count -= 1
            if state.listeners[listener.stream]?.isEmpty == true { state.listeners[listener.stream] = nil }
        }
    }
}
