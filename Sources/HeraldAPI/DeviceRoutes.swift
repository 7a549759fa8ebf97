import Foundation
import HeraldModel
import HeraldPush
import Hummingbird

/// `…/devices`: the caller's push devices in the container, registered, listed and removed.
struct DeviceRoutes: Sendable {
    let registry: any DeviceRegistry
    let bodies: JSONBodies
    let clock: APIClock

    /// `GET` at the collection's path, `PUT` and `DELETE` at `{deviceToken}` under it.
    var collection: RouteCollection<HeraldRequestContext> {
        RouteCollection(context: HeraldRequestContext.self)
            .get(use: list)
            .put(":deviceToken", use: register)
            .delete(":deviceToken", use: delete)
    }

    /// `GET devices`: the caller's devices in the container, oldest registration first.
    @Sendable func list(_ request: Request, context: HeraldRequestContext) async throws -> Response {
        let caller = try context.requireCaller()
        return try JSONBodies.response(.ok, DeviceList(devices: own(caller)))
    }

    /// `PUT devices/{deviceToken}` `{platform, environment?, topic?, appID?, locale?}`:
    /// registers (or re-registers: `registeredAt` becomes now) the device for the caller.
    /// Malformed JSON or wrong types: `BAD_REQUEST`; a token not of its platform's shape, or
    /// a missing or bad field: `INVALID_DEVICE`, naming the field. Past the per-user cap the
    /// oldest registrations are removed and listed in `dropped`.
    @Sendable func register(_ request: Request, context: HeraldRequestContext) async throws -> Response {
        let caller = try context.requireCaller()
        let token = try context.pathParameter("deviceToken")
        let body = try await bodies.decode(DeviceRegistration.self, from: request)
        let device: Device
        do throws(PushError) {
            device = try registry.rules.validated(Device(
                token: token, user: caller.user, container: caller.container, platform: body.platform,
                environment: body.environment, topic: body.topic, appID: body.appID, locale: body.locale,
                registeredAt: clock.milliseconds))
        } catch {
            throw APIError(.invalidDevice, error.field.map { "\($0): \(error.reason)" } ?? error.reason)
        }
        try await PublishFailure.publishing("device") { try await registry.register(device) }
        let others = registry.devices(user: caller.user).filter { $0.registryKey != device.registryKey }
        let excess = others.count + 1 - registry.rules.maxDevicesPerUser
        let dropped = excess > 0
            ? Array(others.sorted { ($0.registeredAt, $0.userKey) < ($1.registeredAt, $1.userKey) }.prefix(excess)) : []
        for old in dropped {
            try await PublishFailure.publishing("dropped device") { try await registry.remove(old) }
        }
        return try JSONBodies.response(.ok, SavedDevice(device: device, dropped: dropped.map(\.token)))
    }

    /// `DELETE devices/{deviceToken}`: publishes the tombstone; 404 when the caller has no
    /// such device in the container.
    @Sendable func delete(_ request: Request, context: HeraldRequestContext) async throws -> Response {
        let caller = try context.requireCaller()
        let token = try context.pathParameter("deviceToken")
        let canonical = token.utf8.count >= 64 && token.utf8.allSatisfy(\.isASCIIHexDigit) ? token.lowercased() : token
        guard let device = own(caller).first(where: { $0.token == canonical }) else {
            throw APIError(.notFound, "no device '\(token)'")
        }
        try await PublishFailure.publishing("device deletion") { try await registry.remove(device) }
        return try JSONBodies.response(.ok, DeletedDevice(token: device.token, deleted: true))
    }

    private func own(_ caller: Caller) -> [Device] {
        registry.devices(user: caller.user)
            .filter { $0.container == caller.container }
            .sorted { ($0.registeredAt, $0.token) < ($1.registeredAt, $1.token) }
    }
}

extension UInt8 {
    fileprivate var isASCIIHexDigit: Bool {
        (0x30...0x39).contains(self) || (0x41...0x46).contains(self) || (0x61...0x66).contains(self)
    }
}
