import ArgumentParser
import Foundation
import HeraldPayload

/// `herald strings parse FILE`: a `.strings` file as a JSON object.
struct StringsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "strings", abstract: "Localization files.", subcommands: [Parse.self])

    struct Parse: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print a .strings file (UTF-8 or UTF-16) as a key → value JSON object, or exit 2 naming the line.")

        @Argument(help: "The .strings file.")
        var file: String

        func run() async throws {
            try await reportingFailures {
                let data = try InputFile.read(file)
                do {
                    print(try StringsFile.jsonText(data, file: file))
                } catch {
                    throw CommandFailure.invalidInput("\(error)")
                }
            }
        }
    }
}
