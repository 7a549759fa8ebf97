import Foundation
import HeraldModel
import Hummingbird

/// `…/{database}/subscriptions`: the caller's subscriptions, listed, read, saved and
/// deleted.
struct SubscriptionRoutes: Sendable {
    let directory: any SubscriptionDirectory
    let publisher: any HeraldPublisher
    let bodies: JSONBodies
    let revisions: SubscriptionRevisions

    /// `GET` at the collection's path, `GET`, `PUT` and `DELETE` at `{subscriptionID}` under it.
    var collection: RouteCollection<HeraldRequestContext> {
        RouteCollection(context: HeraldRequestContext.self)
            .get(use: list)
            .get(":subscriptionID", use: read)
            .put(":subscriptionID", use: save)
            .delete(":subscriptionID", use: delete)
    }

    /// `GET {database}/subscriptions`: the caller's subscriptions in the container and
    /// database, sorted by ID.
    @Sendable func list(_ request: Request, context: HeraldRequestContext) async throws -> Response {
        let caller = try context.requireCaller()
        let database = try Self.database(context)
        let owned = try directory.subscriptions(container: caller.container, database: database, owner: caller.user)
            .filter { $0.ownerRecordName == caller.user && $0.container == caller.container && $0.database == database }
            .sorted { $0.subscriptionID < $1.subscriptionID }
        return try JSONBodies.response(.ok, SubscriptionList(subscriptions: owned))
    }

    /// `GET {database}/subscriptions/{id}`: the caller's own subscription of that ID (IDs are
    /// per user: another user's of the same ID is never seen); 404 when the caller has none.
    @Sendable func read(_ request: Request, context: HeraldRequestContext) async throws -> Response {
        try JSONBodies.response(.ok, ownedSubscription(context, caller: context.requireCaller()))
    }

    /// `DELETE {database}/subscriptions/{id}`: publishes the tombstone of the caller's own
    /// subscription of that ID (another user's of the same ID stays); 404 when the caller has
    /// none. Takes effect when the match stage consumes it.
    @Sendable func delete(_ request: Request, context: HeraldRequestContext) async throws -> Response {
        let subscription = try ownedSubscription(context, caller: context.requireCaller())
        try await PublishFailure.publishing("subscription deletion") {
            try await publisher.deleteSubscription(subscription)
        }
        return try JSONBodies.response(.ok, DeletedSubscription(subscriptionID: subscription.subscriptionID, deleted: true))
    }

    /// `PUT {database}/subscriptions/{id}`: completes the body from the path and the token,
    /// validates it (`SubscriptionDirectory.validate`), publishes it, and answers 200 with
    /// the subscription as stored.
    ///
    /// - `subscriptionID`, `container`, `database`, `ownerRecordName` may be omitted; when
    ///   given they must equal the path's and the token's (`BAD_REQUEST`).
    /// - Malformed JSON or a value of the wrong JSON type: `BAD_REQUEST`; well-typed but not a
    ///   valid subscription (missing query, type not allowed in the database, unknown
    ///   event…): `INVALID_SUBSCRIPTION`; the reason leads with the JSON path.
    /// - `revision` is the server's: any value in the body is replaced by a new one
    ///   (`SubscriptionRevisions`), so a fires-once subscription saved again fires again.
    /// - The ID is the caller's own (docs/cloudkit-behaviour.md §1): another user's subscription of the same ID
    ///   is neither replaced nor an obstacle.
    /// - An ID that is empty, over `Subscription.maxIDBytes` bytes of UTF-8 or holds a control
    ///   character: `BAD_REQUEST` naming `subscriptionID`.
    @Sendable func save(_ request: Request, context: HeraldRequestContext) async throws -> Response {
        let caller = try context.requireCaller()
        let database = try Self.database(context)
        let id = try Self.subscriptionIDParameter(context)
        let body = try await bodies.decode(JSONValue.self, from: request)
        guard case .object(var members) = body else {
            throw APIError(.badRequest, "the body must be a JSON object (a subscription), got \(body.kindDescription)")
        }
        try JSONBodies.complete(&members, with: [
            ("subscriptionID", id, "the path"), ("container", caller.container, "the path"),
            ("database", database.rawValue, "the path"), ("ownerRecordName", caller.user, "the bearer token"),
        ])
        var subscription = try Self.decodeSubscription(.object(members))
        subscription.revision = revisions.next()
        try directory.validate(subscription)
        try await PublishFailure.publishing("subscription") { try await publisher.publish(subscription: subscription) }
        return try JSONBodies.response(.ok, subscription)
    }

    /// The subscription of the path, if the caller owns it.
    /// - Throws: `APIError` (`NOT_FOUND`, `BAD_REQUEST` for a bad database).
    private func ownedSubscription(_ context: HeraldRequestContext, caller: Caller) throws(APIError) -> Subscription {
        let database = try Self.database(context)
        let id = try Self.subscriptionIDParameter(context)
        let key = Subscription.key(container: caller.container, database: database, owner: caller.user, id: id)
        let found: Subscription?
        do { found = try directory.subscription(forKey: key) } catch { throw APIError.from(error) }
        guard let subscription = found, subscription.ownerRecordName == caller.user else {
            throw APIError(.notFound, "no subscription '\(id)' in the \(database.rawValue) database")
        }
        return subscription
    }

    /// The path's subscription ID, checked against `Subscription.problem(withID:)`.
    /// - Throws: `APIError` (`BAD_REQUEST` naming `subscriptionID`).
    static func subscriptionIDParameter(_ context: HeraldRequestContext) throws(APIError) -> String {
        let id = try context.pathParameter("subscriptionID")
        if let problem = Subscription.problem(withID: id) {
            throw APIError(.badRequest, "subscriptionID (the path): \(problem)")
        }
        return id
    }

    /// Decodes a completed subscription object, classifying failures (see `saveSubscription`).
    static func decodeSubscription(_ object: JSONValue) throws(APIError) -> Subscription {
        try JSONBodies.decodeCompleted(Subscription.self, object, invalid: .invalidSubscription)
    }

    /// The `{database}` path parameter.
    /// - Throws: `APIError` (`BAD_REQUEST`) for another name than `private`, `public`, `shared`.
    static func database(_ context: HeraldRequestContext) throws(APIError) -> DatabaseScope {
        let name = try context.pathParameter("database")
        guard let database = DatabaseScope(rawValue: name) else {
            throw APIError(.badRequest, "database must be private, public or shared, got '\(name)'")
        }
        return database
    }
}
