extension AssetLedgerProcessor {
    /// The role of an input topic.
    public enum Input: Sendable {
        case recordChanges, assetReferences
    }

    /// How the asset ledger collects.
    public struct Configuration: Sendable {
        /// The default grace period: 3 days (CloudKit deletes unreferenced data "at least several days" later).
        public static let defaultGracePeriod: Duration = .seconds(3 * 86_400)

        /// How long a file no record refers to waits before its collection event. Default: 3 days.
        public var gracePeriod: Duration = Self.defaultGracePeriod
        /// How often the stage looks for files that came due. Default: 1 s.
        public var tickInterval: Duration = .seconds(1)
        /// Inputs over this size are rejected rather than decoded. Default: 1 MiB.
        public var maxInputBytes = 1 << 20

        public init() {}
    }
}
