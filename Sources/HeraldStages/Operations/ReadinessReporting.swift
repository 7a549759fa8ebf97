import ServiceLifecycle

/// A service that reports readiness conditions. Its initializer registers nothing: the
/// composition root registers every service's conditions (`Readiness.register(_:)`) before
/// the process starts, so each fails `/health/ready` from the start until the service says
/// it is ready; `run()` registers them again (a no-op then) for a service run on its own.
public protocol ReadinessReporting {
    /// The names of the conditions the service sets.
    var readinessConditions: [String] { get }
}

extension Readiness {
    /// Registers, not ready, the conditions of the services that report any.
    public func register(_ services: [any Service]) {
        for case let service as any ReadinessReporting in services {
            for condition in service.readinessConditions { register(condition) }
        }
    }
}
