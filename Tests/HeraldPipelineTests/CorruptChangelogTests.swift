import Foundation
import HeraldDelivery
import HeraldKafka
import HeraldPipeline
import Testing

@Suite("Corrupt changelog entries stop a restore", .timeLimit(.minutes(1)))
struct CorruptChangelogTests {
    @Test("a compose-state entry that does not decode refuses the partition's restore instead of restarting the user at 1")
    func composeRefusesCorruptState() async throws {
        let fixture = try await PipelineFixture(partitions: 1)
        let catalog = fixture.catalog
        let producer = try fixture.producer()
        _ = try await producer.send(OutgoingMessage(
            topic: catalog.name(TopicCatalog.composeState), partition: 0, key: "_alice", value: Data("{\"recipient\": 7".utf8)))
        await producer.close()
        let processor = ComposeProcessor(
            topics: .init(catalog), delivery: Delivery(), users: UserDirectory(),
            changelog: ChangelogReader { try fixture.consumer(group: "restore-\(UUID().uuidString)") })
        await #expect {
            try await processor.partitionsAssigned([TopicPartition(catalog.name(TopicCatalog.matches), 0)])
        } throws: { error in
            guard let error = error as? PipelineError else { return false }
            return error.code == .restore && error.reason.contains("_alice")
                && error.location == "\(catalog.name(TopicCatalog.composeState))[0]"
        }
        #expect(processor.userCount == 0)
    }
}
