import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import HeraldAPI

@Suite("OpenAPI document")
struct OpenAPIDocumentTests {
    /// `docs/openapi.yaml`, found from this file's path (symlinks resolved).
    static var canonicalURL: URL {
        let repo = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return repo.appendingPathComponent("docs/openapi.yaml")
    }

    /// The text of `docs/openapi.yaml`.
    static func canonicalText() throws -> String {
        try String(contentsOf: canonicalURL, encoding: .utf8)
    }

    /// The operations of the document: `METHOD path` for every method under every path,
    /// read with indentation alone (paths at two spaces, methods at four).
    static func operations(_ yaml: String) -> Set<String> {
        var operations = Set<String>()
        var inPaths = false
        var path: String?
        for line in yaml.split(separator: "\n", omittingEmptySubsequences: false) {
            if !line.hasPrefix(" ") && !line.isEmpty {
                inPaths = line == "paths:"
                continue
            }
            guard inPaths else { continue }
            if line.hasPrefix("  /"), line.hasSuffix(":"), !line.hasPrefix("   ") {
                path = String(line.dropFirst(2).dropLast())
            } else if let path, line.hasPrefix("    "), !line.hasPrefix("     "), line.hasSuffix(":") {
                let method = line.trimmingCharacters(in: .whitespaces).dropLast()
                if ["get", "put", "post", "delete", "patch", "head", "options"].contains(method) {
                    operations.insert("\(method.uppercased()) \(path)")
                }
            }
        }
        return operations
    }

    @Test("the document the module carries is docs/openapi.yaml, byte for byte")
    func resourceEqualsFile() throws {
        let resource = try #require(OpenAPIDocument.bundled.bytes)
        #expect(Data(resource.readableBytesView) == (try Data(contentsOf: Self.canonicalURL)))
    }

    @Test("every route the API serves, and the operations routes, are documented, and nothing else")
    func everyRouteDocumented() async throws {
        let documented = Self.operations(try Self.canonicalText())
        let served = Set(try await APITestHarness().api.routes.map(\.description))
        let operationsRoutes: Set = ["GET /health/live", "GET /health/ready", "GET /metrics"]
        #expect(served.count == 18)
        #expect(served.subtracting(documented).isEmpty, "undocumented: \(served.subtracting(documented))")
        #expect(documented.subtracting(served).subtracting(operationsRoutes).isEmpty)
        #expect(operationsRoutes.isSubset(of: documented))
    }

    @Test("every documented /v1 route is answered by the router (not the 404 fallback)")
    func documentedRoutesAreRouted() async throws {
        let harness = try await APITestHarness()
        let documented = Self.operations(try Self.canonicalText()).filter { $0.contains(" /v1/") }
        try await harness.application().test(.router) { client in
            for operation in documented.sorted() {
                let parts = operation.split(separator: " ")
                let path = parts[1].replacingOccurrences(of: "{container}", with: APITestHarness.container)
                    .replacingOccurrences(of: "{database}", with: "private").replacingOccurrences(of: "{subscriptionID}", with: "s1")
                    .replacingOccurrences(of: "{scheduleID}", with: "s1").replacingOccurrences(of: "{deviceToken}", with: "t1")
                let response = try await client.execute(uri: path, method: HTTPRequest.Method(String(parts[0]))!)
                // Unauthenticated: a routed request is refused for want of a token.
                #expect(response.status == .unauthorized, "\(operation)")
            }
        }
    }

    @Test("GET /openapi.yaml serves the document without a token")
    func served() async throws {
        let harness = try await APITestHarness()
        try await harness.application().test(.router) { client in
            let response = try await client.execute(uri: "/openapi.yaml", method: .get)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/yaml; charset=utf-8")
            #expect(response.text == (try Self.canonicalText()))
            #expect(Data(response.body.readableBytesView) == (try Data(contentsOf: Self.canonicalURL)))
        }
    }
}
