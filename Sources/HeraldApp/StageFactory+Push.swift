import HeraldPush
import HeraldStages
import ServiceLifecycle

extension StageFactory {
    /// The push stage runner over the configured transports: injected ones, or the APNs and
    /// FCM clients built from the credentials (closed after the runner stops).
    /// - Throws: `HeraldAppError` (`pushCredentials`) when there are neither credentials nor
    ///   injected transports, or the credentials are unusable: the stage refuses to start
    ///   rather than drop pushes.
    func makePush() throws -> [any Service] {
        let push = configuration.push
        if let injected = push.transports {
            return [try runner(.push, PushProcessor(context: context, transports: injected, settings: pushSettings))]
        }
        try push.check()
        let clients = try PushClients(push, logger: context.logger)
        let processor = PushProcessor(context: context, transports: clients.transports, settings: pushSettings)
        do {
            return [PushClientsCloser(clients: clients), try runner(.push, processor)]
        } catch {
            // No service will close them: their connection pools must still be shut down.
            Task { await clients.shutdown() }
            throw error
        }
    }

    private var pushSettings: PushProcessor.Settings {
        var settings = configuration.push.settings
        settings.maxInputBytes = configuration.maxInputBytes
        return settings
    }
}
