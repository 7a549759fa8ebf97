import ArgumentParser
import Foundation
import HeraldStages
import Logging

extension Logger.Level: @retroactive ExpressibleByArgument {}

/// Log level and the process-wide logging bootstrap (the executable's job, never a library's).
struct LoggingOptions: ParsableArguments {
    @Option(help: "Lowest level logged: trace, debug, info, notice, warning, error, critical.")
    var logLevel: Logger.Level = .info

    /// Logs to stderr, and to the `logs` topic through `sink` when given.
    func bootstrap(sink: LogTopicSink? = nil, instance: String = ProcessInfo.processInfo.hostName) {
        let level = logLevel
        LoggingSystem.bootstrap { label in
            var stderr = StreamLogHandler.standardError(label: label)
            stderr.logLevel = level
            guard let sink else { return stderr }
            return MultiplexLogHandler([stderr, LogTopicHandler(label: label, instance: instance, sink: sink, logLevel: level)])
        }
    }
}
