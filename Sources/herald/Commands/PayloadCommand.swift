import ArgumentParser
import Foundation
import HeraldMatcher
import HeraldModel
import HeraldPayload

/// `herald payload build`: the notification (and its APNs push) one subscription produces
/// for one record change — a dry run of the match and compose stages.
struct PayloadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "payload", abstract: "Notification payloads.", subcommands: [Build.self])

    struct Build: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the notification JSON (docs/ARCHITECTURE.md §5.3) a subscription sends for a record change.",
            discussion: """
                The output is one line of compact JSON with sorted keys: the full notification, its push in \
                apns.payload, apns.pushType/priority/collapseID beside it. It is reproducible: createdAt is the \
                change's timestamp unless --created-at is given. Problems that do not stop the notification \
                (a missing field, a key without a translation) and pruning steps go to stderr, one per line. \
                Exit 2 when the input is invalid or the subscription does not fire for the change (with the reason).
                """)

        @Option(help: ArgumentHelp("The subscription (JSON, docs/ARCHITECTURE.md §5.2).", valueName: "file.json"))
        var subscription: String

        @Option(help: ArgumentHelp("The record change (JSON, docs/ARCHITECTURE.md §5.1).", valueName: "file.json"))
        var change: String

        @Option(help: "The recipient, among those the subscription fires for. Default: the subscription's owner.")
        var recipient: String?

        @Option(help: "The recipient's locale, e.g. fr-CA. Default: the development language.")
        var locale: String?

        @Option(help: ArgumentHelp(
            "The app's localizations: <lang>.lproj/Localizable.strings and .stringsdict, Localizable.xcstrings.",
            valueName: "dir"))
        var localizations: String?

        @Option(help: "The development language of --localizations. Default: the .xcstrings sourceLanguage, else en.")
        var developmentLanguage: String?

        // `.unconditional`: `--badge -1` is the value -1 (refused with a clear error), not a missing value.
        @Option(
            parsing: .unconditional,
            help: "The badge count when the subscription badges: the recipient's count including this notification.")
        var badge = 1

        @Option(parsing: .unconditional, help: "The push payload limit in bytes. Default: 4096, or 5120 with --voip.")
        var maxBytes: Int?

        @Flag(help: "The app receives its pushes over PushKit (push type voip, limit 5120 bytes).")
        var voip = false

        @Option(parsing: .unconditional, help: "The notification's position in the recipient's stream (1 is the first).")
        var sequence: Int64 = 1

        @Option(help: "createdAt in milliseconds since 1970. Default: the change's timestamp.")
        var createdAt: Int64?

        @Flag(help: "Apply CloudKit's predicate rules strictly.")
        var cloudkit = false

        func run() async throws {
            try await reportingFailures {
                let limits = try payloadLimits()
                guard badge >= 0 else { throw CommandFailure.invalidInput("--badge must be 0 or more, not \(badge)") }
                guard sequence >= 1 else { throw CommandFailure.invalidInput("--sequence must be 1 or more, not \(sequence)") }
                if let locale, !LocaleIdentifier.isWellFormed(locale) {
                    throw CommandFailure.invalidInput(
                        "--locale: '\(locale)' is not a locale identifier (language[-Script][-REGION], e.g. fr, fr-CA, zh-Hant-TW)")
                }
                let subscriptionValue = try readJSON(Subscription.self, from: subscription)
                let recordChange = try readJSON(RecordChange.self, from: change)
                let match = try firedMatch(subscriptionValue, recordChange)
                let catalog = try localizations.map {
                    try LocalizationDirectory.load($0, developmentLanguage: developmentLanguage)
                }

                let composed: ComposedNotification
                do {
                    composed = try NotificationComposer(limits: limits).compose(
                        match, sequence: sequence, createdAt: createdAt ?? recordChange.timestamp, badge: badge,
                        locale: locale, catalog: catalog, voip: voip)
                } catch {
                    throw CommandFailure.invalidInput("cannot compose the notification: \(error)")
                }
                for problem in composed.problems { printToStandardError("warning: \(problem)") }
                for step in composed.pruning { printToStandardError("pruned: \(step)") }
                let json: Data
                do {
                    json = try WireCodec().encode(composed.notification)
                } catch {
                    throw CommandFailure.runtime("cannot encode the notification: \(error)")
                }
                print(String(decoding: json, as: UTF8.self))
            }
        }

        private func payloadLimits() throws -> PayloadLimits {
            guard let maxBytes else { return PayloadLimits() }
            guard maxBytes >= 1 else { throw CommandFailure.invalidInput("--max-bytes must be at least 1, not \(maxBytes)") }
            return PayloadLimits(maxBytes: maxBytes, voipMaxBytes: maxBytes)
        }

        /// The match of the subscription for the change and the chosen recipient.
        /// - Throws: invalid input when the subscription is invalid, does not fire (with the
        ///   reason), or fires for other recipients only.
        private func firedMatch(_ value: Subscription, _ recordChange: RecordChange) throws -> Match {
            var index = SubscriptionIndex(rules: SubscriptionRules(strictCloudKit: cloudkit))
            do {
                try index.upsert(value)
            } catch {
                throw CommandFailure.invalidInput("invalid subscription: \(subscription): \(error)")
            }
            let matches = index.matches(for: recordChange)
            guard !matches.isEmpty else {
                let reason = (try? index.explain(value, recordChange))?.map(\.explanation) ?? "it fires for no recipient"
                throw CommandFailure.invalidInput(
                    "subscription '\(value.subscriptionID)' does not fire for change '\(recordChange.changeID)': \(reason)")
            }
            let wanted = recipient ?? value.ownerRecordName
            guard let match = matches.first(where: { $0.recipient == wanted }) else {
                let recipients = matches.map(\.recipient).joined(separator: ", ")
                throw CommandFailure.invalidInput(
                    "subscription '\(value.subscriptionID)' fires for \(recipients), not for \(wanted)")
            }
            return match
        }
    }
}

private func printToStandardError(_ line: String) {
    FileHandle.standardError.write(Data("\(line)\n".utf8))
}
