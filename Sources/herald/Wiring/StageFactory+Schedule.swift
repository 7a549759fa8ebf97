import HeraldKafka
import HeraldPipeline
import ServiceLifecycle

extension StageFactory {
    /// The users directory (tracking time-zone changes), its follower, and the schedule
    /// stage runner.
    func makeSchedule(sharedProducer: KafkaProducer) throws -> [any Service] {
        let users = UserDirectory(tracksTimeZones: true)
        let follower = CompactedTopicFollower(
            name: "schedule.users", consumer: try ungroupedConsumer("schedule-users"), producer: sharedProducer,
            topic: catalog.name(TopicCatalog.users), partitions: catalog.partitions,
            deadLetterTopic: catalog.name(TopicCatalog.deadLetters), readiness: readiness, logger: logger,
            onReady: { users.gate.open() },
            apply: { message throws(Rejection.Reason) in try users.apply(message) })
        let processor = ScheduleProcessor(
            topics: .init(catalog), partitions: catalog.partitions, users: users,
            changelog: changelogReader(for: "schedule"))
        let runner = StageRunner(
            configuration: configuration(for: .schedule), processor: processor, consumer: try consumer(for: .schedule),
            producer: try producer(for: .schedule, shared: sharedProducer), readiness: readiness, logger: logger)
        return [follower, runner]
    }

    /// Reads a stage's changelog partitions on assignment, with a consumer of its own.
    func changelogReader(for stage: String) -> ChangelogReader {
        let environment = self.environment
        let catalog = self.catalog
        let options = self.options
        let logger = self.logger
        return ChangelogReader {
            try KafkaConsumer(
                configuration: environment.consumerConfiguration(
                    groupID: "\(catalog.prefix)\(stage)-restore-\(options.instanceID)",
                    clientID: "herald-\(stage)-restore-\(options.instanceID)"),
                logger: logger)
        }
    }
}
