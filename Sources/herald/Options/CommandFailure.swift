import ArgumentParser
import Foundation

/// Prints `message` on stderr and exits with `code` (2: invalid input, 1: runtime failure).
struct CommandFailure: Error {
    var message: String
    var code: Int32

    static func invalidInput(_ message: String) -> CommandFailure { CommandFailure(message: message, code: 2) }
    static func runtime(_ message: String) -> CommandFailure { CommandFailure(message: message, code: 1) }
}

extension AsyncParsableCommand {
    /// Runs `body`, turning a `CommandFailure` (or any other error) into a message on stderr and an exit code.
    func reportingFailures(_ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch let failure as CommandFailure {
            FileHandle.standardError.write(Data("error: \(failure.message)\n".utf8))
            throw ExitCode(failure.code)
        } catch let error as ValidationError {
            throw error
        } catch let code as ExitCode {
            throw code
        } catch {
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            throw ExitCode(1)
        }
    }
}
