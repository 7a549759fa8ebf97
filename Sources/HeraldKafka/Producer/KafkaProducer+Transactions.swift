import CRdKafka

/// Kafka transactions: a consume→produce hop whose outputs and input offsets commit together.
/// Requires `ProducerConfiguration.transactionalID`.
extension KafkaProducer {
    /// Fences older producers with the same transactional ID and recovers the last state.
    /// Call once, before the first transaction.
    public func initTransactions(timeout: Duration = .seconds(30)) async throws(KafkaError) {
        try checkTransactional(operation: "init transactions")
        let client = self.client
        try await runTransactional("init transactions") { rd_kafka_init_transactions(client.handle, timeout.timeoutMilliseconds) }
    }

    /// Starts a transaction; every message sent until commit or abort belongs to it.
    public func beginTransaction() throws(KafkaError) {
        try checkTransactional(operation: "begin transaction")
        if let error = rd_kafka_begin_transaction(client.handle) {
            throw KafkaError(consuming: error, operation: "begin transaction")
        }
    }

    /// Adds consumed offsets (the next offset to read, per partition) to the transaction.
    public func sendOffsetsToTransaction(
        _ offsets: [TopicPartitionOffset], group: ConsumerGroupMetadata, timeout: Duration = .seconds(30)
    ) async throws(KafkaError) {
        guard !offsets.isEmpty else { return }
        let client = self.client
        try await runTransactional("send offsets to transaction") {
            let list = TopicPartitionList(offsets)
            return withExtendedLifetime(group) {
                list.withPointer { rd_kafka_send_offsets_to_transaction(client.handle, $0, group.pointer, timeout.timeoutMilliseconds) }
            }
        }
    }

    /// Commits the transaction (flushing its messages first).
    /// - Throws: `KafkaError`; when `requiresAbort` is set, call `abortTransaction` and redo the work.
    public func commitTransaction(timeout: Duration = .seconds(60)) async throws(KafkaError) {
        let client = self.client
        try await runTransactional("commit transaction") { rd_kafka_commit_transaction(client.handle, timeout.timeoutMilliseconds) }
    }

    /// Aborts the transaction: its messages are marked aborted and its offsets discarded.
    public func abortTransaction(timeout: Duration = .seconds(60)) async throws(KafkaError) {
        let client = self.client
        try await runTransactional("abort transaction") { rd_kafka_abort_transaction(client.handle, timeout.timeoutMilliseconds) }
    }

    private func checkTransactional(operation: String) throws(KafkaError) {
        try checkUsable(operation: operation)
        guard configuration.transactionalID != nil else {
            throw KafkaError(code: .state, reason: "the producer has no transactional ID", operation: operation)
        }
    }

    private func runTransactional(
        _ operation: String, _ body: @escaping @Sendable () -> OpaquePointer?
    ) async throws(KafkaError) {
        let failure: KafkaError? = await executor.run {
            body().map { KafkaError(consuming: $0, operation: operation) }
        }
        if let failure { throw failure }
    }
}

/// A consumer's group identity (group, generation, member), used to commit its offsets
/// inside a producer's transaction. Obtain it from `KafkaConsumer.groupMetadata()`.
///
/// `@unchecked Sendable` is safe: the pointer is immutable after `init`, only read by
/// librdkafka, and freed in `deinit` when nothing else holds it.
public final class ConsumerGroupMetadata: @unchecked Sendable {
    let pointer: OpaquePointer

    init(pointer: OpaquePointer) { self.pointer = pointer }

    deinit { rd_kafka_consumer_group_metadata_destroy(pointer) }
}
