import HeraldModel
import HeraldPush
import Synchronization

/// A `PushTransport` in memory: records every request and answers from a script per token
/// (each answer used once, in order), else `.accepted`.
final class PushTransportDouble: PushTransport {
    private struct State {
        var script: [String: [ProviderResponse]] = [:]
        var sent: [PushRequest] = []
    }

    private let state = Mutex(State())

    /// Answers the next pushes to `token` with `responses`, in order.
    func script(_ token: String, _ responses: ProviderResponse...) {
        state.withLock { $0.script[token, default: []] += responses }
    }

    /// Every request so far, in the order they were sent.
    var sent: [PushRequest] { state.withLock { $0.sent } }

    /// `notificationID → tokens` of the requests so far.
    func pushes(to token: String) -> [String] { sent.filter { $0.device.token == token }.map(\.notificationID) }

    func send(_ request: PushRequest) async -> ProviderResponse {
        state.withLock { state in
            state.sent.append(request)
            guard var answers = state.script[request.device.token], !answers.isEmpty else {
                return .accepted(providerID: request.notificationID)
            }
            let answer = answers.removeFirst()
            state.script[request.device.token] = answers
            return answer
        }
    }
}
