import Foundation
import HeraldApp
import HeraldKafka
import HeraldModel
import HeraldStages
import Logging

/// What `herald demo` does once Herald runs: subscriptions through the HTTP API, users and
/// record changes through Kafka, then each user's notifications fetched page by page with
/// change tokens, a mark-read, dead letters and the topics.
struct DemoScript {
    let runtime: HeraldRuntime
    let environment: KafkaEnvironment
    let catalog: TopicCatalog
    let logger: Logger
    let waitSeconds: Int
    let pushes: DemoPushes

    private func say(_ line: String) { print(line) }

    func play(subscriptions: [Data], changes: [Data], users: [Data]) async throws {
        let port = try await httpPort()
        let server = "http://127.0.0.1:\(port)"
        let codec = WireCodec()
        _ = try await runtime.producer.send(users.map {
            OutgoingMessage(topic: catalog.name(TopicCatalog.users),
                            key: (try? codec.decode(UserProfile.self, from: $0))?.partitionKey ?? "invalid", value: $0)
        })
        say("3. Published \(users.count) user profiles (locale, time zone) to \(catalog.name(TopicCatalog.users))")

        var owners: [String: String] = [:]
        for line in subscriptions {
            let subscription = try codec.decode(Subscription.self, from: line)
            owners[subscription.ownerRecordName] = subscription.container
            let client = try await APIClient.make(
                server: server, user: subscription.ownerRecordName, container: subscription.container, secret: nil)
            let answer = try await client.send(
                "PUT", "v1/containers/\(subscription.container)/\(subscription.database.rawValue)/subscriptions/\(subscription.subscriptionID)",
                body: line)
            guard answer.status == 200 else {
                throw CommandFailure.runtime("PUT \(subscription.subscriptionID): HTTP \(answer.status) \(String(decoding: answer.body, as: UTF8.self))")
            }
            say("4. PUT …/\(subscription.database.rawValue)/subscriptions/\(subscription.subscriptionID) as \(subscription.ownerRecordName) → 200")
        }
        let deviceClients = try await withThrowingTaskGroup(of: (String, APIClient).self) { group in
            for (user, container) in owners { group.addTask { (user, try await APIClient.make(server: server, user: user, container: container, secret: nil)) } }
            return try await group.reduce(into: [String: APIClient]()) { $0[$1.0] = $1.1 }
        }
        let gone = try await pushes.register(deviceClients, container: owners.values.first ?? "")
        // Let the match stage's table take the subscriptions in, and the push stage the devices.
        try await Task.sleep(for: .milliseconds(1500))
        _ = try await runtime.producer.send(changes.map { line in
            OutgoingMessage(topic: catalog.name(TopicCatalog.recordChanges),
                            key: (try? codec.decode(RecordChange.self, from: line))?.partitionKey ?? "unparsed", value: line)
        })
        say("5. Published \(changes.count) record changes to \(catalog.name(TopicCatalog.recordChanges)) (one malformed on purpose)")

        let clients = deviceClients
        let container = owners.values.first ?? ""
        try await waitForNotifications(clients, container: container, expected: 7)
        say("\n6. Each user's notifications, fetched page by page (resultsLimit 2) with the change token of the previous page:")
        for user in clients.keys.sorted() {
            try await showStream(user, client: clients[user]!, container: container)
        }
        if let alice = clients["_alice"] {
            try await markFirstRead(alice, container: container)
        }
        try await showDeadLetters()
        if let alice = clients["_alice"] {
            try await DemoSchedules(client: alice, container: container, say: say).play { token in
                try await fetch(alice, container: container, token: token, limit: 400)
            }
        }
        try await pushes.show(clients, container: container, gone: gone, waitSeconds: waitSeconds)
    }

    private func httpPort() async throws -> Int {
        for _ in 0..<200 {
            if let port = runtime.httpPort { return port }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw CommandFailure.runtime("the HTTP server did not start")
    }

    private func fetch(_ client: APIClient, container: String, token: String?, limit: Int) async throws -> [String: Any] {
        var body: [String: Any] = ["resultsLimit": limit]
        if let token { body["serverChangeToken"] = token }
        let answer = try await client.send(
            "POST", "v1/containers/\(container)/notifications/changes", body: try JSONSerialization.data(withJSONObject: body))
        guard answer.status == 200, let object = try JSONSerialization.jsonObject(with: answer.body) as? [String: Any] else {
            throw CommandFailure.runtime("fetch: HTTP \(answer.status) \(String(decoding: answer.body, as: UTF8.self))")
        }
        return object
    }

    private func waitForNotifications(_ clients: [String: APIClient], container: String, expected: Int) async throws {
        let deadline = ContinuousClock.now + .seconds(waitSeconds)
        while ContinuousClock.now < deadline {
            var total = 0
            for client in clients.values {
                total += (try await fetch(client, container: container, token: nil, limit: 400)["notifications"] as? [Any])?.count ?? 0
            }
            if total >= expected { return }
            try await Task.sleep(for: .milliseconds(250))
        }
        throw CommandFailure.runtime("fewer than \(expected) notifications arrived within \(waitSeconds) s")
    }

    private func showStream(_ user: String, client: APIClient, container: String) async throws {
        say("   \(user):")
        var token: String?
        var page = 1
        repeat {
            let answer = try await fetch(client, container: container, token: token, limit: 2)
            for case let notification as [String: Any] in answer["notifications"] as? [Any] ?? [] {
                say("     " + Self.describe(notification))
            }
            token = answer["serverChangeToken"] as? String
            let more = answer["moreComing"] as? Bool ?? false
            say("     page \(page): token \(token.map { String($0.prefix(12)) + "…" } ?? "-") moreComing \(more)")
            page += 1
            if !more { break }
        } while page < 20
    }

    static func describe(_ notification: [String: Any]) -> String {
        let sequence = notification["sequence"] as? Int ?? 0
        let type = notification["notificationType"] as? String ?? "?"
        var parts = ["#\(sequence) \(type)"]
        if let reason = notification["queryNotificationReason"] as? String { parts.append(reason) }
        if let subscription = notification["subscriptionID"] as? String { parts.append("via \(subscription)") }
        if let badge = notification["badge"] as? Int { parts.append("badge \(badge)") }
        if let rendered = notification["rendered"] as? [String: Any], let body = rendered["body"] as? String {
            parts.append("[\(rendered["locale"] as? String ?? "")] \(rendered["title"] as? String ?? "") “\(body)”")
        }
        if let push = notification["apns"] as? [String: Any], let type = push["pushType"] as? String {
            parts.append("push \(type)/\(push["priority"] as? Int ?? 0)")
        }
        return parts.joined(separator: " · ")
    }

    private func markFirstRead(_ client: APIClient, container: String) async throws {
        let first = try await fetch(client, container: container, token: nil, limit: 1)
        guard let id = ((first["notifications"] as? [Any])?.first as? [String: Any])?["notificationID"] as? String else { return }
        let answer = try await client.send(
            "POST", "v1/containers/\(container)/notifications/read",
            body: try JSONSerialization.data(withJSONObject: ["notificationIDs": [id]]))
        say("\n7. POST …/notifications/read for _alice's first notification → \(answer.status); fetched again from the start:")
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            let again = try await fetch(client, container: container, token: nil, limit: 1)
            if let notification = (again["notifications"] as? [Any])?.first as? [String: Any],
               notification["notificationType"] as? String == "readNotification" {
                say("     " + Self.describe(notification) + " (only its ID is returned once read)")
                return
            }
            try await Task.sleep(for: .milliseconds(200))
        }
        say("     (the read had not reached the reader yet)")
    }

    private func showDeadLetters() async throws {
        let reader = TopicReader(client: environment.client, logger: logger)
        let deadLetters = try await reader.read(
            catalog.name(TopicCatalog.deadLetters), partitions: catalog.partitions, count: 1, timeout: .seconds(10))
        say("\n8. Dead letters (topic \(catalog.name(TopicCatalog.deadLetters))):")
        for record in deadLetters.compactMap(DeadLetter.Record.init) {
            say("   \(record.stage): \(record.sourceTopic)[\(record.sourcePartition)]@\(record.sourceOffset) \(record.code): \(record.reason.prefix(100))")
        }
    }
}
