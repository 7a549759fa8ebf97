import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HeraldAPI

/// A small client of Herald's HTTP API for the command line: it signs its own bearer token
/// for `--user` and `--container` with the API's secret (development and operations use).
struct APIClient {
    let server: URL
    let bearer: String

    static func make(server: String, user: String, container: String, secret: String?) async throws -> APIClient {
        guard let url = URL(string: server), url.scheme == "http" || url.scheme == "https" else {
            throw CommandFailure.invalidInput("--server must be an http(s) URL, got '\(server)'")
        }
        let chosen = try Secrets.jwtSecret(secret, embedded: true)
        do throws(APIError) {
            let authenticator = try await APIAuthenticator(secret: chosen.value)
            return APIClient(server: url, bearer: try await authenticator.issueToken(user: user, container: container))
        } catch {
            throw CommandFailure.invalidInput("--jwt-secret: \(error.reason)")
        }
    }

    /// Sends a request; returns the status and body. Transport failures are runtime errors.
    func send(_ method: String, _ path: String, body: Data? = nil) async throws -> (status: Int, body: Data) {
        var request = URLRequest(url: server.appendingPathComponent(path))
        request.httpMethod = method
        request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization")
        if let body {
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        do {
            let (data, response) = try await URLSession.shared.data(for: request)
            return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
        } catch {
            throw CommandFailure.runtime("cannot reach \(server.absoluteString): \(error.localizedDescription)")
        }
    }

    /// Prints the body; a non-2xx answer exits 2 (client error) or 1 (server error) with the body on stderr.
    static func finish(_ answer: (status: Int, body: Data)) throws {
        let text = String(decoding: answer.body, as: UTF8.self)
        guard (200..<300).contains(answer.status) else {
            throw answer.status >= 500 || answer.status == 0
                ? CommandFailure.runtime("HTTP \(answer.status): \(text)")
                : CommandFailure.invalidInput("HTTP \(answer.status): \(text)")
        }
        print(text)
    }
}
