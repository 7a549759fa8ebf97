import Foundation
import HeraldDelivery
import HeraldKafka
import HeraldStages
import HeraldTestSupport
import Testing

@Suite("Dead letters list and replay", .timeLimit(.minutes(5)))
struct DeadLetterArchiveTests {
    private func rejection(_ topic: String, offset: Int64, key: String, value: Data, code: String) -> Rejection {
        let message = ConsumedMessage(
            topicPartition: TopicPartition(topic, 0), offset: offset, key: Data(key.utf8), value: value,
            headers: [MessageHeader("origin", "app-\(offset)")])
        return Rejection(message: message, reason: Rejection.Reason(code: code, "reason \(offset)"))
    }

    /// Four dead letters: two replayable from match, one truncated from match, one from compose.
    private func seed(_ fixture: PipelineFixture) async throws {
        let changes = fixture.catalog.name(TopicCatalog.recordChanges)
        let matches = fixture.catalog.name(TopicCatalog.matches)
        let topic = fixture.catalog.name(TopicCatalog.deadLetters)
        let letters = [
            DeadLetter.message(
                for: rejection(changes, offset: 1, key: "z1", value: Data("{bad".utf8), code: "UNDECODABLE"),
                stage: "match", topic: topic, maxBytes: 100_000),
            DeadLetter.message(
                for: rejection(changes, offset: 2, key: "z2", value: Data("[]".utf8), code: "UNDECODABLE"),
                stage: "match", topic: topic, maxBytes: 100_000),
            DeadLetter.message(
                for: rejection(changes, offset: 3, key: "z3", value: Data(repeating: 0x41, count: 5_000), code: "TOO_LARGE"),
                stage: "match", topic: topic, maxBytes: 2_000),
            DeadLetter.message(
                for: rejection(matches, offset: 4, key: "_u1", value: Data("{}".utf8), code: "UNDECODABLE"),
                stage: "compose", topic: topic, maxBytes: 100_000),
        ]
        let producer = try fixture.producer()
        _ = try await producer.send(letters)
        await producer.close()
    }

    private func archive(_ fixture: PipelineFixture) -> DeadLetterArchive {
        DeadLetterArchive(client: fixture.environment.client, catalog: fixture.catalog, logger: fixture.logger)
    }

    @Test("list reads the whole topic and filters by stage, code and source topic")
    func listFilters() async throws {
        let fixture = try await PipelineFixture()
        try await seed(fixture)
        let archive = archive(fixture)
        let changes = fixture.catalog.name(TopicCatalog.recordChanges)
        #expect(try await archive.list(DeadLetterFilter()).records.count == 4)
        #expect(try await archive.list(DeadLetterFilter(stage: "compose")).records.map(\.sourceOffset) == [4])
        #expect(try await archive.list(DeadLetterFilter(code: "TOO_LARGE")).records.map(\.valueForm) == [.truncated])
        let fromChanges = try await archive.list(DeadLetterFilter(stage: "match", code: "UNDECODABLE", topic: changes)).records
        #expect(Set(fromChanges.map(\.sourceOffset)) == [1, 2])
    }

    @Test("a dead letter written again by a redone batch is listed and replayed once, its copies counted")
    func copiesOfOneBadInput() async throws {
        let fixture = try await PipelineFixture(partitions: 1)
        let changes = fixture.catalog.name(TopicCatalog.recordChanges)
        let topic = fixture.catalog.name(TopicCatalog.deadLetters)
        let letter = DeadLetter.message(
            for: rejection(changes, offset: 7, key: "z7", value: Data("{bad".utf8), code: "UNDECODABLE"),
            stage: "match", topic: topic, maxBytes: 100_000)
        let producer = try fixture.producer()
        _ = try await producer.send([letter, letter, letter])
        let archive = archive(fixture)
        let listing = try await archive.list(DeadLetterFilter())
        #expect(listing.records.map(\.sourceOffset) == [7])
        #expect(listing.copies == 2)
        let report = try await archive.replay(DeadLetterFilter(), producer: producer, dryRun: true)
        await producer.close()
        #expect(report.matched == 1 && report.replayed == 1)
    }

    @Test("replay re-produces the originals to the source topic, refuses truncated ones; a dry run produces nothing")
    func replay() async throws {
        let fixture = try await PipelineFixture(partitions: 1)
        try await seed(fixture)
        let archive = archive(fixture)
        let changes = fixture.catalog.name(TopicCatalog.recordChanges)
        let producer = try fixture.producer()
        let filter = DeadLetterFilter(stage: "match")

        let dry = try await archive.replay(filter, producer: producer, dryRun: true)
        #expect(dry.matched == 3 && dry.replayed == 2 && dry.refused.count == 1)
        #expect(try await fixture.reader.endOffsets([changes], partitions: 1)[TopicPartition(changes, 0)] == 0, "a dry run produces nothing")

        let report = try await archive.replay(filter, producer: producer, dryRun: false)
        await producer.close()
        #expect(report.replayed == 2 && report.byTopic == [changes: 2])
        #expect(report.refused.first?.record.sourceOffset == 3)
        #expect(report.refused.first?.reason.contains("truncated") == true)
        let replayed = try await fixture.read(changes, count: 2)
        #expect(replayed.map(\.text) == ["{bad", "[]"])
        #expect(replayed.map(\.keyString) == ["z1", "z2"])
        #expect(replayed.map(\.headers) == [[MessageHeader("origin", "app-1")], [MessageHeader("origin", "app-2")]])
        #expect(try await fixture.reader.endOffsets([changes], partitions: 1)[TopicPartition(changes, 0)] == 2)
    }
}
