import Hummingbird

/// The API's JSON answers for requests no route serves: a served path with another method
/// is 405 `METHOD_NOT_ALLOWED` (with `Allow`); an unknown path under `/v1` is 404
/// `NOT_FOUND`. Neither needs a token.
struct FallbackRoutes: Sendable {
    /// The routes served.
    let served: [APIRoute]

    /// The methods answered 405 where a path does not serve them.
    static let methods: [HTTPRequest.Method] = [.get, .post, .put, .delete, .patch, .options, .trace, HeraldAPI.query]

    /// Adds the fallbacks to `group`, after the routes.
    func add(to group: RouterGroup<HeraldRequestContext>) {
        let methodsByPath = Dictionary(grouping: served, by: \.path).mapValues { $0.map(\.method) }
        for (path, allowed) in methodsByPath.sorted(by: { $0.key < $1.key }) {
            let allow = allowed.sorted().joined(separator: ", ")
            for method in Self.methods where !allowed.contains(method.rawValue) {
                group.on(RouterPath(path), method: method) { _, _ -> Response in
                    throw APIError(
                        .methodNotAllowed, "\(method.rawValue) is not allowed here; use \(allow)", headers: [.allow: allow])
                }
            }
        }
        for prefix in Self.unroutedPrefixes(of: Set(methodsByPath.keys)) {
            for method in Self.methods + [.head] {
                group.on(RouterPath(prefix), method: method) { request, _ -> Response in
                    throw APIError(.notFound, "no route \(method.rawValue) \(request.uri.path)")
                }
            }
        }
    }

    /// `/v1/**`, which catches what no route starts like, and the routes' own prefixes
    /// (`/v1/containers/{container}`…) that are not routes: trie nodes, which would not
    /// fall through to it.
    static func unroutedPrefixes(of paths: Set<String>) -> [String] {
        var prefixes: Set<String> = ["/v1/**"]
        for path in paths {
            let components = path.split(separator: "/")
            for count in 1..<max(components.count, 1) {
                let prefix = "/" + components.prefix(count).joined(separator: "/")
                if !paths.contains(prefix) { prefixes.insert(prefix) }
            }
        }
        return prefixes.sorted()
    }
}
