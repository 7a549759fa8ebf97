import ArgumentParser
import Foundation
import HeraldModel
import HeraldPredicate

/// `herald predicate check|eval`: NSPredicate format strings as subscriptions use them.
struct PredicateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "predicate", abstract: "Check or evaluate a subscription predicate.",
        subcommands: [Check.self, Eval.self])

    /// The predicate and its arguments, shared by both subcommands.
    struct PredicateOptions: ParsableArguments {
        @Option(help: "An NSPredicate format string, e.g. \"priority >= %@ AND tags CONTAINS 'urgent'\".")
        var predicate: String

        @Option(help: "A JSON array of arguments: plain JSON values or typed {\"value\": …, \"type\": …} objects.")
        var arguments = "[]"

        @Flag(help: "Refuse what CloudKit would refuse (OR, ENDSWITH, LIKE, key paths, …).")
        var cloudkit = false

        func parse() throws -> RecordPredicate {
            let values: [JSONValue]
            do {
                values = try WireCodec().decode([JSONValue].self, from: Data(arguments.utf8))
            } catch {
                throw CommandFailure.invalidInput("--arguments: \(error)")
            }
            do {
                return try RecordPredicate(
                    format: predicate, arguments: PredicateArgument.list(values), cloudKitRules: cloudkit)
            } catch {
                throw CommandFailure.invalidInput("invalid predicate: \(error)")
            }
        }
    }

    struct Check: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the normalized predicate (exit 0), or the error with its line and column (exit 2).")

        @OptionGroup var options: PredicateOptions

        func run() async throws {
            try await reportingFailures { print(try options.parse().canonicalFormat) }
        }
    }

    struct Eval: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print true or false for a record {recordName, recordType, fields} (Web Services format).")

        @OptionGroup var options: PredicateOptions

        @Option(help: ArgumentHelp("A JSON file holding the record.", valueName: "file"))
        var record: String

        func run() async throws {
            try await reportingFailures {
                let predicate = try options.parse()
                let input = try readJSON(RecordInput.self, from: record)
                print(predicate.evaluate(PredicateRecord(
                    recordName: input.recordName, recordType: input.recordType, fields: input.fields ?? [:],
                    creationDate: input.created?.timestamp, modificationDate: input.modified?.timestamp,
                    createdBy: input.created?.userRecordName, modifiedBy: input.modified?.userRecordName)))
            }
        }
    }
}

/// A Web Services record: `{recordName, recordType, fields, created?, modified?}`.
struct RecordInput: Decodable {
    struct Stamp: Decodable {
        var timestamp: Int64?
        var userRecordName: String?
    }

    var recordName: String
    var recordType: String?
    var fields: [String: FieldValue]?
    var created: Stamp?
    var modified: Stamp?
}

/// Reads and decodes a JSON file, as invalid input (exit 2) when it cannot.
func readJSON<T: Decodable>(_ type: T.Type, from path: String) throws -> T {
    let data = try InputFile.read(path)
    do {
        return try WireCodec().decode(type, from: data)
    } catch {
        throw CommandFailure.invalidInput("\(path): \(error)")
    }
}
