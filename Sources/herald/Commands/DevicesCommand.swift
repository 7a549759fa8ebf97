import ArgumentParser
import Foundation
import HeraldModel
import HeraldPush

/// `herald devices put|list|delete`: a user's push devices through the HTTP API.
struct DevicesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices", abstract: "Manage a user's push devices through the HTTP API.",
        subcommands: [Put.self, List.self, Delete.self])

    struct Put: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Register a device (PUT …/devices/{token}); the token is checked before anything is sent.")
        @OptionGroup var api: APIOptions
        @Option(help: "The device token (APNs: hex; FCM: a registration token).") var token: String
        @Option(help: "apns or fcm.") var platform: String
        @Option(help: "APNs: development or production.") var environment: String?
        @Option(help: "APNs: the app's bundle ID (apns-topic).") var topic: String?
        @Option(help: "The app's own ID.") var appID: String?
        @Option(help: "The device's locale, like en-US.") var locale: String?

        func run() async throws {
            try await reportingFailures {
                guard let platform = Device.Platform(rawValue: platform) else {
                    throw CommandFailure.invalidInput("--platform: expected apns or fcm, got '\(platform)'")
                }
                var parsedEnvironment: Device.Environment?
                if let environment {
                    guard let value = Device.Environment(rawValue: environment) else {
                        throw CommandFailure.invalidInput("--environment: expected development or production, got '\(environment)'")
                    }
                    parsedEnvironment = value
                }
                // The server checks the same rules; checking here names the flag and sends nothing bad.
                do throws(PushError) {
                    _ = try DeviceRules().validated(Device(
                        token: token, user: api.user, container: api.container, platform: platform,
                        environment: parsedEnvironment, topic: topic, appID: appID, locale: locale, registeredAt: 0))
                } catch {
                    throw CommandFailure.invalidInput("--\(error.field ?? "token"): \(error.reason)")
                }
                var body: [String: String] = ["platform": platform.rawValue]
                body["environment"] = environment
                body["topic"] = topic
                body["appID"] = appID
                body["locale"] = locale
                try await api.request("PUT", "devices/\(token)", body: try JSONSerialization.data(withJSONObject: body, options: [.sortedKeys]))
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print the user's devices in the container.")
        @OptionGroup var api: APIOptions
        func run() async throws { try await reportingFailures { try await api.request("GET", "devices") } }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove a device (DELETE …/devices/{token}).")
        @OptionGroup var api: APIOptions
        @Option(help: "The device token.") var token: String
        func run() async throws { try await reportingFailures { try await api.request("DELETE", "devices/\(token)") } }
    }
}
