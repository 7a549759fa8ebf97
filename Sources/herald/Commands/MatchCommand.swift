import ArgumentParser
import Foundation
import HeraldMatcher
import HeraldModel

/// `herald match`: which subscriptions a change fires (a dry run of the match stage).
struct MatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "match",
        abstract: "Print one JSON line per subscription a record change fires.",
        discussion: "Each line: subscriptionID, recipient, notificationType and, for query notifications, reason.")

    @Option(help: ArgumentHelp("Subscriptions, one JSON object per line.", valueName: "file.jsonl"))
    var subscriptions: String

    @Option(help: ArgumentHelp("One record change (JSON).", valueName: "file.json"))
    var change: String

    @Flag(help: "Apply CloudKit's predicate rules strictly.")
    var cloudkit = false

    func run() async throws {
        try await reportingFailures {
            let data = try InputFile.read(subscriptions)
            if let hint = jsonLinesHint(data, file: subscriptions, holding: "subscription") {
                throw CommandFailure.invalidInput(hint)
            }
            var index = SubscriptionIndex(rules: SubscriptionRules(strictCloudKit: cloudkit))
            var problems: [String] = []
            for (number, line) in jsonLines(data) {
                do {
                    try index.upsert(try WireCodec().decode(Subscription.self, from: line))
                } catch {
                    problems.append("\(subscriptions):\(number): \(error)")
                }
            }
            guard problems.isEmpty else { throw CommandFailure.invalidInput(problems.joined(separator: "\n")) }
            let recordChange = try readJSON(RecordChange.self, from: change)
            let encoder = JSONEncoder.sorted
            for match in index.matches(for: recordChange) {
                let line = MatchLine(
                    subscriptionID: match.subscription.subscriptionID, recipient: match.recipient,
                    notificationType: match.notificationType.rawValue, reason: match.queryNotificationReason?.rawValue)
                print(String(decoding: try encoder.encode(line), as: UTF8.self))
            }
        }
    }

    private struct MatchLine: Encodable {
        var subscriptionID: String
        var recipient: String
        var notificationType: String
        var reason: String?
    }
}
