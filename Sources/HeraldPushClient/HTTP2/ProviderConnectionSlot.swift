import NIOCore
import Synchronization

/// One place in `HTTP2ProviderClient`'s pool: no connection yet, one being opened (callers
/// meanwhile wait for the same attempt), or an open one; a closed connection is replaced on
/// the next request.
final class ProviderConnectionSlot: Sendable {
    /// Why no connection could be had.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private enum State {
        case empty
        case connecting(EventLoopFuture<HTTP2ProviderConnection>)
        case ready(HTTP2ProviderConnection)
        case shutDown
    }

    private let state = Mutex(State.empty)

    /// The open connection, or a new one from `open` (one attempt at a time; a failed
    /// attempt is reported to everyone waiting on it, and the next request tries again).
    func connection(open: () -> EventLoopFuture<HTTP2ProviderConnection>) async -> Result<HTTP2ProviderConnection, Failure> {
        let attempt: EventLoopFuture<HTTP2ProviderConnection>? = state.withLock { state in
            switch state {
            case .ready(let connection) where connection.isOpen:
                return nil
            case .connecting(let attempt):
                return attempt
            case .shutDown:
                return nil
            case .empty, .ready:
                let attempt = open()
                state = .connecting(attempt)
                return attempt
            }
        }
        guard let attempt else {
            return state.withLock { state in
                if case .ready(let connection) = state { return .success(connection) }
                return .failure(Failure(description: "the client is shut down"))
            }
        }
        do {
            let connection = try await attempt.get()
            // The first waiter to get here installs the connection; later waiters on the same
            // attempt find it installed (or, if it has since closed and been replaced, use it
            // anyway: their request then fails as unreachable and is retried).
            let kept = state.withLock { state in
                switch state {
                case .connecting(let current) where current === attempt:
                    state = .ready(connection)
                    return true
                case .shutDown:
                    return false
                default:
                    return true
                }
            }
            guard kept else {
                await connection.close()
                return .failure(Failure(description: "the client is shut down"))
            }
            return .success(connection)
        } catch {
            state.withLock { state in
                if case .connecting(let current) = state, current === attempt { state = .empty }
            }
            return .failure(Failure(description: "cannot connect: \(error)"))
        }
    }

    /// Closes the connection, if any, and refuses later requests.
    func shutdown() async {
        let previous = state.withLock { state in
            defer { state = .shutDown }
            return state
        }
        switch previous {
        case .ready(let connection):
            await connection.close()
        case .connecting(let attempt):
            if let connection = try? await attempt.get() { await connection.close() }
        case .empty, .shutDown:
            break
        }
    }
}
