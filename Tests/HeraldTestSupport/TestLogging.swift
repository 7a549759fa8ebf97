import Foundation
import Logging

/// The loggers of test services: quiet unless `HERALD_TEST_LOG` is set (then everything
/// from debug up goes to standard error).
public enum TestLogging {
    /// A logger labelled `label`; with `recentLog`, lines at notice and above are also kept
    /// there, for failure messages.
    public static func logger(label: String, keepingIn recentLog: RecentLog? = nil) -> Logger {
        Logger(label: label) { label in
            var standardError = StreamLogHandler.standardError(label: label)
            standardError.logLevel = ProcessInfo.processInfo.environment["HERALD_TEST_LOG"] == nil ? .critical : .debug
            guard let recentLog else { return standardError }
            return MultiplexLogHandler([standardError, recentLog.handler(label: label)])
        }
    }
}
