import ArgumentParser
import Foundation
import HeraldPushClient
import Logging

/// `herald stand-in`: the local APNs/FCM stand-in (`PushStandIn`) as a process of its own,
/// so that push stages in other processes can be killed while it keeps recording (the
/// chaos suite's push scenario).
struct StandInCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stand-in",
        abstract: "Run the local APNs/FCM stand-in (HTTP/2 over TLS on 127.0.0.1) until stopped, recording every push.",
        discussion: """
            Writes to --directory: ca.pem (for --push-ca-file), apns.p8 (for --apns-key-file), \
            service-account.json (for --fcm-service-account-file), then stand-in.json ({"url", \
            "teamID", "keyID"}) last, once it listens. Appends every request it answered to \
            pushes.jsonl there, one JSON object a line ({"path", "status", "apnsID", "reason", "at": \
            milliseconds since 1970}), \
            at most --flush-interval after it came. Throw-away keys: for tests and the chaos suite.
            """)

    @Option(help: ArgumentHelp("Where the CA, the accounts, the address and the recorded pushes go.", valueName: "dir"))
    var directory: String

    @Option(help: "Port to listen on (0: a free one).")
    var port = 0

    @Option(help: ArgumentHelp("How often recorded pushes are appended to pushes.jsonl, in milliseconds.", valueName: "ms"))
    var flushInterval = 100

    @OptionGroup var logging: LoggingOptions

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be between 0 and 65535") }
        guard flushInterval >= 1 else { throw ValidationError("--flush-interval must be at least 1 ms") }
    }

    func run() async throws {
        logging.bootstrap()
        let logger = Logger(label: "herald.stand-in")
        try await reportingFailures {
            let folder = URL(fileURLWithPath: directory, isDirectory: true)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let accounts = try StandInAccounts()
            var configuration = PushStandIn.Configuration()
            configuration.port = port
            configuration.recordBodies = false
            configuration.recordLimit = 50_000_000
            let standIn = try await PushStandIn.start(accounts: accounts, configuration: configuration, logger: logger)
            try standIn.writeCAFile(to: folder.appendingPathComponent("ca.pem").path)
            try Data(accounts.apnsPrivateKeyPEM.utf8).write(to: folder.appendingPathComponent("apns.p8"))
            try accounts.serviceAccountJSON(tokenURL: standIn.tokenURL).write(to: folder.appendingPathComponent("service-account.json"))
            let pushes = folder.appendingPathComponent("pushes.jsonl")
            _ = FileManager.default.createFile(atPath: pushes.path, contents: nil)
            let address = try JSONSerialization.data(
                withJSONObject: ["url": standIn.baseURL, "teamID": accounts.teamID, "keyID": accounts.keyID], options: [.sortedKeys])
            // Written last and renamed into place: its presence says everything else is there.
            let ready = folder.appendingPathComponent("stand-in.json")
            let partial = ready.appendingPathExtension("partial")
            try address.write(to: partial)
            try? FileManager.default.removeItem(at: ready)
            try FileManager.default.moveItem(at: partial, to: ready)
            logger.info("stand-in listening", metadata: ["url": .string(standIn.baseURL), "directory": .string(directory)])
            let output = try FileHandle(forWritingTo: pushes)
            var written = 0
            while !Task.isCancelled {
                try await Task.sleep(for: .milliseconds(flushInterval))
                let records = standIn.requests
                guard records.count > written else { continue }
                var lines = Data()
                for record in records[written...] { lines.append(Self.line(record)) }
                try output.write(contentsOf: lines)
                written = records.count
            }
        }
    }

    /// One request as a JSON line: its path, the answer, the `apns-id` it carried.
    private static func line(_ record: RecordedPush) -> Data {
        var fields: [String: Any] = ["path": record.path, "status": record.status, "at": record.answeredAt]
        fields["apnsID"] = record.headers["apns-id"]
        fields["reason"] = record.reason
        var data = (try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys])) ?? Data("{}".utf8)
        data.append(UInt8(ascii: "\n"))
        return data
    }
}
