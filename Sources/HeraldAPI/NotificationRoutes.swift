import Foundation
import HeraldModel
import HeraldReader
import Hummingbird

/// `…/notifications/changes` and `…/notifications/read`: fetching the caller's
/// notifications and marking them read. (The event stream is `StreamRoutes`.)
struct NotificationRoutes: Sendable {
    let store: NotificationStore
    let publisher: any HeraldPublisher
    let bodies: JSONBodies
    let clock: APIClock

    /// `POST changes` and `POST read` under the collection's path.
    var collection: RouteCollection<HeraldRequestContext> {
        RouteCollection(context: HeraldRequestContext.self)
            .post("changes", use: fetchChanges)
            .post("read", use: markRead)
    }

    /// `POST notifications/changes`: the store's page, its body written as the store
    /// encoded it (no re-encoding), straight into the answer's buffer.
    @Sendable func fetchChanges(_ request: Request, context: HeraldRequestContext) async throws -> Response {
        let caller = try context.requireCaller()
        let raw = try await bodies.readBody(request)
        // The common body without JSONDecoder; anything else decodes (and fails) as before.
        let body = try FetchChangesBody.parse(raw) ?? bodies.decode(FetchChangesRequest.self, from: raw, emptyIsObject: true)
        let page = try await store.fetchEncoded(
            recipient: caller.user, container: caller.container, after: body.serverChangeToken,
            limit: body.resultsLimit, includeRead: body.includeRead ?? true)
        return Response(
            status: .ok, headers: [.contentType: "application/json"],
            body: ResponseBody(byteBuffer: page.jsonBody(allocator: ByteBufferAllocator())))
    }

    /// `POST notifications/read`: publishes one `NotificationRead` for the caller and answers
    /// 202 with the IDs (UUIDs, lower-cased, duplicates removed, order kept); an ID that is
    /// not a UUID is `BAD_REQUEST` naming its index, and nothing is published. It takes effect when the reader
    /// consumes it: a fetch right after may not show it yet.
    @Sendable func markRead(_ request: Request, context: HeraldRequestContext) async throws -> Response {
        let caller = try context.requireCaller()
        let body = try await bodies.decode(MarkReadRequest.self, from: request)
        let limit = NotificationRead.maximumNotificationIDs
        guard (1...limit).contains(body.notificationIDs.count) else {
            throw APIError(.badRequest, "notificationIDs: must hold 1 to \(limit) IDs, got \(body.notificationIDs.count)")
        }
        if let empty = body.notificationIDs.firstIndex(where: \.isEmpty) {
            throw APIError(.badRequest, "notificationIDs[\(empty)]: must not be empty")
        }
        if let bad = body.notificationIDs.firstIndex(where: { UUID(uuidString: $0) == nil }) {
            throw APIError(
                .badRequest,
                "notificationIDs[\(bad)]: expected a notification ID (a UUID), got \(JSONValue.string(body.notificationIDs[bad]).abbreviated())")
        }
        var seen = Set<String>()
        let ids = body.notificationIDs.map { $0.lowercased() }.filter { seen.insert($0).inserted }
        let read = NotificationRead(
            recipient: caller.user, containerIdentifier: caller.container, notificationIDs: ids, readAt: clock.milliseconds)
        try await PublishFailure.publishing("read marks") { try await publisher.publish(read: read) }
        return try JSONBodies.response(.accepted, MarkReadRequest(notificationIDs: ids))
    }
}
