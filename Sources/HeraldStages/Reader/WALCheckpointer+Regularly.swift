import HeraldReader
import Logging

extension WALCheckpointer {
    /// Checkpoints the store's log every `interval` beside the batches being applied, so
    /// that the writer never stops to; until cancelled, then closes the checkpointer. A
    /// failure is logged and the next round tries again (the writer's own checkpoint is the
    /// backstop). The reader and the API's subscription directory run one each.
    func checkpointRegularly(every interval: Duration, logger: Logger) async {
        defer { close() }
        var failing = false
        while !Task.isCancelled {
            try? await Task.sleep(for: interval)
            if Task.isCancelled { return }
            do {
                // Skipped (the writer's own checkpoint held the lock) is neither a failure nor a recovery.
                guard try await !checkpoint().skipped else { continue }
                if failing { logger.info("store checkpoints work again") }
                failing = false
            } catch {
                if !failing { logger.warning("store checkpoint failed (the writer checkpoints itself as a backstop): \(error)") }
                failing = true
            }
        }
    }
}
