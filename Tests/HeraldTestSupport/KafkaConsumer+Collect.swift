import HeraldKafka

extension KafkaConsumer {
    /// Polls until `count` messages arrive or `timeout` passes, storing offsets after each
    /// batch when `store` is set.
    /// - Returns: the messages and the other events seen, in order.
    public func collect(
        count: Int, timeout: Duration = .seconds(60), store: Bool = true
    ) async throws -> (messages: [ConsumedMessage], events: [ConsumerEvent]) {
        var messages: [ConsumedMessage] = []
        var others: [ConsumerEvent] = []
        let deadline = ContinuousClock.now + timeout
        while messages.count < count, ContinuousClock.now < deadline {
            for event in await poll() {
                if case .messages(let batch) = event {
                    messages += batch
                    if store { try self.store(batch) }
                } else {
                    others.append(event)
                }
            }
        }
        return (messages, others)
    }
}
