import HeraldPush
import HeraldStages
import ServiceLifecycle

extension StageFactory {
    /// The push stage runner over the configured transports.
    /// - Throws: `HeraldAppError` (`pushCredentials`) when there are neither credentials nor
    ///   injected transports: the stage refuses to start rather than drop pushes.
    func makePush() throws -> [any Service] {
        let processor = PushProcessor(context: context, transports: try pushTransports(), settings: pushSettings)
        return [try runner(.push, processor)]
    }

    private var pushSettings: PushProcessor.Settings {
        var settings = configuration.push.settings
        settings.maxInputBytes = configuration.maxInputBytes
        return settings
    }

    private func pushTransports() throws -> PushTransports {
        let push = configuration.push
        if let injected = push.transports { return injected }
        try push.check()
        // INTEGRATION POINT (push15): build `APNsClient` from (apnsKeyFile, apnsTeamID,
        // apnsKeyID) and `FCMClient` from fcmServiceAccountFile here (HeraldPushClient), each
        // platform without credentials answering `.rejected(403, "no credentials configured")`.
        throw HeraldAppError(
            setting: .pushCredentials,
            reason: "this build has no APNs/FCM clients yet (HeraldPushClient is not wired in)")
    }
}
