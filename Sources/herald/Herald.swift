import ArgumentParser

/// The `herald` command: CloudKit-style subscription notifications as Kafka workers.
@main
struct Herald: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "herald",
        abstract: "CloudKit-style subscription notifications, run as Kafka workers.",
        discussion: """
            Without --brokers, `run` starts an embedded Kafka broker on 127.0.0.1. \
            `broker` runs that broker alone so several processes can share it.
            """,
        version: HeraldVersion.current,
        subcommands: [
            RunCommand.self, DemoCommand.self, BrokerCommand.self, ChangesCommand.self, TopicsCommand.self,
            PredicateCommand.self, MatchCommand.self, StringsCommand.self, BenchCommand.self,
            PayloadCommand.self, SubscriptionsCommand.self, FetchCommand.self, TokenCommand.self, ScheduleCommand.self,
            AssetsCommand.self, DeadLettersCommand.self, DevicesCommand.self, StandInCommand.self,
        ])
}
