import Foundation
import HeraldAPI
import HeraldApp
import HeraldModel
import HeraldReader
import HeraldStages
import Logging

/// Fetches per second and latency of `POST …/notifications/changes` on loopback under
/// concurrent clients (`wrk`, a separate process), next to `GET /health/live` on the same
/// server in the same run (the HTTP stack's own ceiling). The server is the one
/// `herald run --stages reader` builds (`HeraldApp.buildRuntime`), middleware included.
public struct ReaderBenchmark {
    /// What wrk measured for one request.
    public struct Load: Sendable {
        public var requestsPerSecond: Double
        public var p50: String
        public var p99: String
        public var errors: String?
    }

    let users: Int
    let perUser: Int
    let connections: Int
    let seconds: Int
    let pageSize: Int
    let logger: Logger
    static let container = "iCloud.bench"

    /// - Parameters:
    ///   - users: users with a notification stream, `perUser` notifications each.
    ///   - connections: wrk's concurrent connections; `seconds`: per measurement.
    ///   - pageSize: the `resultsLimit` of each fetch.
    public init(users: Int, perUser: Int, connections: Int, seconds: Int, pageSize: Int, logger: Logger) {
        self.users = users
        self.perUser = perUser
        self.connections = connections
        self.seconds = seconds
        self.pageSize = pageSize
        self.logger = logger
    }

    /// Builds the reader and its API as `herald run --stages reader` does, fills its store,
    /// serves it on loopback and loads it with wrk.
    /// - Throws: `BenchmarkError` when wrk is missing, the server does not start or wrk
    ///   gives no rate.
    public func run() async throws -> (health: Load, fetch: Load) {
        guard let wrk = Self.which("wrk") else {
            throw BenchmarkError("herald bench reader needs wrk (apt-get install wrk)")
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("herald-reader-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let jwtSecret = String(repeating: "b", count: 40)
        var configuration = HeraldConfiguration(
            instanceID: "bench", dataDirectory: directory.path,
            tokenKey: .init(String(repeating: "42", count: 32)), jwtSecret: .init(jwtSecret))
        configuration.stages = [.reader]
        configuration.httpHost = "127.0.0.1"
        configuration.httpPort = 0
        configuration.handlesSignals = false
        configuration.retention = RetentionPolicy(maxCount: max(1000, perUser), maxAge: .seconds(86_400 * 365 * 10))
        // An embedded broker whose topics stay empty: the store is filled directly, before
        // the reader starts (a store without saved offsets is never rebuilt).
        let environment = try KafkaEnvironment(embeddedBrokers: 1, logger: logger)
        let runtime = try await HeraldApp.buildRuntime(
            configuration, environment: environment, catalog: TopicCatalog(prefix: "bench.", partitions: 1), logger: logger)
        guard let store = runtime.store else { throw BenchmarkError("the reader's runtime has no store") }
        try await fill(store)
        let authenticator = try await APIAuthenticator(secret: jwtSecret)
        return try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await runtime.run() }
            let bound = try await runtime.listeningPort()
            var tokens: [String] = []
            for user in 0..<users { tokens.append(try await authenticator.issueToken(user: "_u\(user)", container: Self.container)) }
            let script = directory.appendingPathComponent("fetch.lua")
            try Self.script(tokens: tokens, pageSize: pageSize).write(to: script, atomically: true, encoding: .utf8)
            let health = try Self.load(wrk, url: "http://127.0.0.1:\(bound)/health/live", script: nil, connections: connections, seconds: seconds)
            let fetch = try Self.load(wrk, url: "http://127.0.0.1:\(bound)", script: script.path, connections: connections, seconds: seconds)
            await runtime.triggerGracefulShutdown()
            try await tasks.waitForAll()
            try store.close()
            return (health, fetch)
        }
    }

    /// `users` streams of `perUser` notifications each.
    private func fill(_ store: NotificationStore) async throws {
        let codec = WireCodec()
        for user in 0..<users {
            var batch = StoreBatch()
            for sequence in 1...perUser {
                var notification = HeraldNotification(
                    notificationID: UUID().uuidString.lowercased(), notificationType: .query, containerIdentifier: Self.container,
                    recipient: "_u\(user)", sequence: Int64(sequence), createdAt: EpochMilliseconds.now(),
                    subscriptionID: "s\(user)", subscriptionOwnerUserRecordID: "_u\(user)")
                notification.queryNotificationReason = .recordCreated
                notification.databaseScope = .private
                notification.recordID = RecordID(recordName: "r\(sequence)", zoneID: ZoneID(zoneName: "Notes", ownerRecordName: "_u\(user)"))
                notification.alertBody = "Item \(sequence) changed"
                notification.recordFields = ["title": .string("Item \(sequence)")]
                notification.badge = sequence
                batch.notifications.append(try EncodedNotification(json: codec.encode(notification)))
            }
            _ = try await store.apply(batch)
        }
    }

    /// wrk's script: each request is a random user's fetch. The requests are formatted once
    /// per thread, up front, so wrk (on the same two cores) spends per request only the
    /// choice of one — as little as for the baseline's fixed request.
    static func script(tokens: [String], pageSize: Int) -> String {
        let list = tokens.map { "\"\($0)\"" }.joined(separator: ",\n")
        return """
            local tokens = {
            \(list)
            }
            local requests = {}
            for i, token in ipairs(tokens) do
              requests[i] = wrk.format("POST", "/v1/containers/\(container)/notifications/changes",
                {["Authorization"] = "Bearer " .. token, ["Content-Type"] = "application/json"},
                '{"resultsLimit": \(pageSize)}')
            end
            math.randomseed(42)
            request = function()
              return requests[math.random(#requests)]
            end
            """
    }

    /// wrk's threads: two, one per core, but never more than connections (wrk refuses that).
    static func threads(_ connections: Int) -> Int { min(2, connections) }

    static func load(_ wrk: String, url: String, script: String?, connections: Int, seconds: Int) throws -> Load {
        var arguments = ["-t\(threads(connections))", "-c\(connections)", "-d\(seconds)s", "--latency"]
        if let script { arguments += ["-s", script] }
        arguments.append(url)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: wrk)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        func field(_ prefix: String) -> String? {
            output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
                .first { $0.hasPrefix(prefix) }
                .map { String($0.dropFirst(prefix.count)).trimmingCharacters(in: .whitespaces) }
        }
        guard let rate = field("Requests/sec:").flatMap(Double.init) else {
            throw BenchmarkError("wrk gave no rate:\n\(output)")
        }
        let errors = [field("Non-2xx or 3xx responses:").map { "non-2xx \($0)" }, field("Socket errors:")].compactMap { $0 }
        return Load(requestsPerSecond: rate, p50: field("50%") ?? "?", p99: field("99%") ?? "?",
                    errors: errors.isEmpty ? nil : errors.joined(separator: "; "))
    }

    static func which(_ tool: String) -> String? {
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":") {
            let path = "\(directory)/\(tool)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }
}
