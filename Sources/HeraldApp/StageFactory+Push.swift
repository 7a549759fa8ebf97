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
        if let injected = push.transports { return try runners(injected) }
        try push.check()
        let clients = try PushClients(push, logger: context.logger)
        do {
            return [PushClientsCloser(clients: clients)] + (try runners(clients.transports))
        } catch {
            // No service will close them: their connection pools must still be shut down.
            Task { await clients.shutdown() }
            throw error
        }
    }

    /// One runner per worker (group member) over shared transports and app pauses: each
    /// holds the users of the partitions Kafka assigns it, so their batches overlap.
    private func runners(_ transports: PushTransports) throws -> [any Service] {
        let first = PushProcessor(context: context, transports: transports, settings: pushSettings)
        var runners: [any Service] = [try runner(.push, first)]
        for worker in 1..<max(1, pushSettings.workers) {
            let processor = PushProcessor(context: context, transports: transports, settings: pushSettings, sharingPausesWith: first)
            runners.append(try runner(.push, processor, worker: worker))
        }
        return runners
    }

    private var pushSettings: PushProcessor.Settings {
        var settings = configuration.push.settings
        settings.maxInputBytes = configuration.maxInputBytes
        return settings
    }
}
