import HeraldDelivery
import HeraldModel
@testable import HeraldStages

extension ComposeProcessor {
    /// A compose stage fed consumed messages directly, without a broker: all users' gate
    /// open, no restore (it fails), the clock fixed at 1_795_300_000_500.
    static func unrestored(catalog: TopicCatalog) -> ComposeProcessor {
        let users = UserDirectory()
        users.gate.open()
        return ComposeProcessor(
            topics: .init(catalog), delivery: Delivery(), users: users,
            changelog: ChangelogReader { throw PipelineError(code: .restore, reason: "no restore in this test") },
            now: { 1_795_300_000_500 })
    }
}
