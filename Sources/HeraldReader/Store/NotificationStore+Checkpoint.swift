extension NotificationStore {
    /// The pages of log (about 4 KB each) after which the writer checkpoints by itself:
    /// 4,096 (16 MB), not SQLite's 1,000, so that a `WALCheckpointer` does that work.
    ///
    /// It stays a backstop that matters under sustained writes: a log starts over only at a
    /// write transaction that begins when all of it is copied, and while the writer commits
    /// without a pause, the checkpointer never catches up with the last commit. The log would
    /// then grow without bound (measured: to this limit, 64 MB at 16,384, within seconds of
    /// `bench pipeline`'s full rate), and every page read looks through its index. At this
    /// limit the writer's own checkpoint finds most pages already copied. When the writer
    /// pauses between batches (a paced load), the checkpointer's log starts over and the
    /// writer never reaches it.
    static let writerCheckpointPages = 4_096

    /// A checkpointer of this store's log, to run regularly beside the writer (the reader
    /// stage does); nil for a store in memory, which has no log.
    public func makeCheckpointer() -> WALCheckpointer? {
        guard fetchConnections != nil else { return nil }
        return WALCheckpointer(path: database.path)
    }
}
