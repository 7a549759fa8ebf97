@testable import HeraldKafka
import HeraldReader
import HeraldStages
import Testing

@Suite("Topic catalog")
struct TopicCatalogTests {
    @Test("names carry the prefix and compacted topics are configured for compaction")
    func namesAndCompaction() {
        let catalog = TopicCatalog(prefix: "acme.", partitions: 12, replicationFactor: 3)
        #expect(catalog.name(TopicCatalog.recordChanges) == "acme.record-changes")
        let specifications = Dictionary(uniqueKeysWithValues: catalog.specifications.map { ($0.name, $0) })
        #expect(specifications.count == TopicCatalog.all.count)
        #expect(specifications["acme.subscriptions"]?.configs["cleanup.policy"] == "compact")
        #expect(specifications["acme.users"]?.configs["cleanup.policy"] == "compact")
        #expect(specifications["acme.record-changes"]?.configs["cleanup.policy"] == nil)
        #expect(specifications.values.allSatisfy { $0.partitions == 12 && $0.replicationFactor == 3 })
    }

    @Test("every topic has an explicit retention; notifications outlive the reader store's retention")
    func retentionIsExplicit() throws {
        let catalog = TopicCatalog(prefix: "acme.", partitions: 12, replicationFactor: 3)
        for specification in catalog.specifications {
            let retention = try #require(specification.configs["retention.ms"].flatMap { Int64($0) }, "\(specification.name)")
            let compacted = specification.configs["cleanup.policy"] == "compact"
            #expect(compacted ? retention == -1 : retention > 0, "\(specification.name): retention.ms \(retention)")
            #expect(specification.configs["min.insync.replicas"] == "2", "\(specification.name)")
        }
        let storeRetention = RetentionPolicy().maxAge.components.seconds * 1000
        for topic in [TopicCatalog.notifications, TopicCatalog.notificationReads] {
            let kept = try #require(catalog.specifications.first { $0.name == catalog.name(topic) }?.configs["retention.ms"])
            #expect(Int64(kept)! >= storeRetention, "\(topic.baseName) must cover the reader's \(storeRetention) ms")
        }
    }

    @Test("min.insync.replicas never exceeds what the replication factor can satisfy")
    func minInSyncReplicas() {
        #expect(TopicCatalog(prefix: "h.", partitions: 1, replicationFactor: 1).minInSyncReplicas == 1)
        #expect(TopicCatalog(prefix: "h.", partitions: 1, replicationFactor: 2).minInSyncReplicas == 1)
        #expect(TopicCatalog(prefix: "h.", partitions: 1, replicationFactor: 3).minInSyncReplicas == 2)
        #expect(TopicCatalog(prefix: "h.", partitions: 1, replicationFactor: 5).minInSyncReplicas == 2)
    }

    @Test("user-keyed topics with different partition counts are refused")
    func coPartitioningIsChecked() throws {
        let catalog = TopicCatalog()
        var ensured = catalog.specifications.map { EnsuredTopic(name: $0.name, partitions: 6, created: false) }
        try catalog.checkCoPartitioning(ensured)
        ensured[ensured.firstIndex { $0.name == "herald.notifications" }!].partitions = 3
        #expect(throws: PipelineError.self) { try catalog.checkCoPartitioning(ensured) }
    }

    @Test("topics whose partition count is not the catalog's are refused, naming them")
    func partitionCountIsChecked() throws {
        let catalog = TopicCatalog()
        var ensured = catalog.specifications.map { EnsuredTopic(name: $0.name, partitions: 6, created: false) }
        ensured.append(EnsuredTopic(name: "someone-elses-topic", partitions: 1, created: false))
        try catalog.checkCoPartitioning(ensured)
        ensured[ensured.firstIndex { $0.name == "herald.asset-refs" }!].partitions = 12
        let error = #expect(throws: PipelineError.self) { try catalog.checkCoPartitioning(ensured) }
        #expect(error?.reason.contains("herald.asset-refs=12") == true)
    }

    @Test("each stage consumes as its own group under the prefix")
    func stageGroups() {
        #expect(HeraldStage.match.groupID(prefix: "herald.") == "herald.match")
        #expect(HeraldStage.reader.inputTopics.map(\.baseName) == ["notifications", "notification-reads", "badges"])
    }
}
