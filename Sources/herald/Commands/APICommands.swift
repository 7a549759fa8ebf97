import ArgumentParser
import Foundation
import HeraldAPI
import HeraldModel

/// Where the API is and who is asking.
struct APIOptions: ParsableArguments {
    @Option(help: "The Herald HTTP server.")
    var server = "http://127.0.0.1:8080"

    @Option(help: "The user record name to act as (the token's `sub`).")
    var user: String

    @Option(help: "The container (the token's `cid`).")
    var container: String

    @Option(help: ArgumentHelp("The API's HS256 secret. Default: $HERALD_JWT_SECRET, else the development secret.", valueName: "secret"))
    var jwtSecret: String?

    func client() async throws -> APIClient {
        try await APIClient.make(server: server, user: user, container: container, secret: jwtSecret)
    }

    var base: String { "v1/containers/\(container)" }

    /// Sends one request to `path` below the container's base path and prints the answer
    /// (see `APIClient.finish`).
    func request(_ method: String, _ path: String, body: Data? = nil) async throws {
        try APIClient.finish(try await client().send(method, "\(base)/\(path)", body: body))
    }
}

/// `herald token issue`.
struct TokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token", abstract: "Bearer tokens for the HTTP API.", subcommands: [Issue.self])

    struct Issue: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print an HS256 bearer token for a user and container (development).")

        @Option var user: String
        @Option var container: String
        @Option(help: "Lifetime in seconds.") var ttl = 3600
        @Option(help: ArgumentHelp("The API's HS256 secret. Default: $HERALD_JWT_SECRET, else the development secret.", valueName: "secret"))
        var jwtSecret: String?

        func run() async throws {
            try await reportingFailures {
                guard ttl > 0 else { throw CommandFailure.invalidInput("--ttl must be positive") }
                let secret = try Secrets.jwtSecret(jwtSecret, embedded: true)
                do throws(APIError) {
                    let authenticator = try await APIAuthenticator(secret: secret.value)
                    print(try await authenticator.issueToken(user: user, container: container, ttl: .seconds(ttl)))
                } catch {
                    throw CommandFailure.invalidInput("\(error.reason)")
                }
            }
        }
    }
}

/// `herald fetch`.
struct FetchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetch", abstract: "Fetch a user's notification changes after a token (POST …/notifications/changes).")

    @OptionGroup var api: APIOptions
    @Option(help: "The serverChangeToken of the previous fetch.") var token: String?
    @Option(help: "resultsLimit.") var limit: Int?
    @Flag(help: "Leave read notifications out.") var hideRead = false

    func run() async throws {
        try await reportingFailures {
            var body: [String: Any] = ["includeRead": !hideRead]
            if let token { body["serverChangeToken"] = token }
            if let limit { body["resultsLimit"] = limit }
            try await api.request("POST", "notifications/changes", body: try JSONSerialization.data(withJSONObject: body))
        }
    }
}

/// `herald subscriptions put|get|list|delete`.
struct SubscriptionsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "subscriptions",
        abstract: "Manage a user's subscriptions through the HTTP API; re-key the topic by owner (migrate).",
        subcommands: [Put.self, Get.self, List.self, Delete.self, SubscriptionsMigrateCommand.self])

    struct Put: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create or replace a subscription from a JSON file (docs/ARCHITECTURE.md §5.2).")
        @OptionGroup var api: APIOptions
        @Option(help: "private, public or shared.") var database = "private"
        @Option(help: "The subscription JSON.") var file: String
        @Option(help: "The subscription ID (default: the file's subscriptionID).") var id: String?

        func run() async throws {
            try await reportingFailures {
                let data = try InputFile.read(file)
                let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
                guard let identifier = id ?? object?["subscriptionID"] as? String else {
                    throw CommandFailure.invalidInput("\(file): give --id or a subscriptionID in the file")
                }
                try await api.request("PUT", "\(database)/subscriptions/\(identifier)", body: data)
            }
        }
    }

    /// Where the API is and which database: what `list` addresses.
    struct DatabaseOptions: ParsableArguments {
        @OptionGroup var api: APIOptions
        @Option var database = "private"

        /// Sends `method` to the database's subscriptions (`id`: to one of them) and prints the answer.
        func request(_ method: String, id: String? = nil) async throws {
            try await api.request(method, "\(database)/subscriptions" + (id.map { "/\($0)" } ?? ""))
        }
    }

    /// The database's options and `--id`: what `get` and `delete` address.
    struct SubscriptionOptions: ParsableArguments {
        @OptionGroup var database: DatabaseOptions
        @Option var id: String

        /// Sends `method` to the subscription and prints the answer.
        func request(_ method: String) async throws { try await database.request(method, id: id) }
    }

    struct Get: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print one subscription.")
        @OptionGroup var subscription: SubscriptionOptions
        func run() async throws { try await reportingFailures { try await subscription.request("GET") } }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print the user's subscriptions in a database.")
        @OptionGroup var subscriptions: DatabaseOptions
        func run() async throws { try await reportingFailures { try await subscriptions.request("GET") } }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete a subscription.")
        @OptionGroup var subscription: SubscriptionOptions
        func run() async throws { try await reportingFailures { try await subscription.request("DELETE") } }
    }
}
