import HeraldModel
import HeraldPush
import Synchronization

/// The provider answers that paused an app (403: credentials refused) during one batch
/// of sends, shared by its concurrent lanes: once one push of an app is refused, the
/// batch's other pushes of that app are not sent but given the same answer (and so wait
/// with the app's pause), instead of each collecting its own 403.
final class AppRefusals: Sendable {
    private let refusals = Mutex<[String: ProviderResponse]>([:])

    /// The refusal that paused `app` in this batch, if one did.
    func refusal(for app: String) -> ProviderResponse? {
        refusals.withLock { $0[app] }
    }

    /// Notes `response` for `app` when it is one that pauses the app.
    func note(_ response: ProviderResponse, app: String, platform: Device.Platform) {
        guard case .pauseApp = PushAction(response: response, platform: platform) else { return }
        refusals.withLock { $0[app] = $0[app] ?? response }
    }
}
