extension NotificationStore {
    /// The pages of log (about 4 KB each) after which the writer checkpoints by itself, a
    /// backstop for a log that no `WALCheckpointer` keeps short: 16,384 (64 MB), not
    /// SQLite's 1,000, because a checkpoint on the writer holds up every batch behind it.
    static let writerCheckpointPages = 16_384

    /// A checkpointer of this store's log, to run regularly beside the writer (the reader
    /// stage does); nil for a store in memory, which has no log.
    public func makeCheckpointer() -> WALCheckpointer? {
        guard fetchConnections != nil else { return nil }
        return WALCheckpointer(path: database.path)
    }
}
