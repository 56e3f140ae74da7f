import SimulatedWorld

/// One checkout request that reaches the shop's server.
public struct CheckoutRequest: Sendable, Equatable {
    /// The request's trace id, which every backend call made for it must carry.
    public let traceID: String
    /// The order to charge.
    public let order: String

    public init(traceID: String, order: String) {
        self.traceID = traceID
        self.order = order
    }
}

/// Serves checkout requests: charges the order, answers, and sends the receipt afterwards.
///
/// Every backend call made for a request carries the request's trace id (`RequestTrace.id`),
/// the receipt's included. The receipt goes out after the charge succeeded, at background
/// priority, and the answer never waits for it.
///
/// Solution: the receipt goes out in `Task(priority:)`, an unstructured task that inherits the
/// request's task-local values (and so its trace id), where `Task.detached` inherits none.
public struct CheckoutHandler: Sendable {
    /// The backend every call goes to.
    public let backend: TracedBackend

    public init(backend: TracedBackend) {
        self.backend = backend
    }

    /// Charges `request.order` under the request's trace id and returns the backend's answer;
    /// then sends the receipt in the background, without waiting for it.
    public func handle(_ request: CheckoutRequest) async throws -> String {
        try await RequestTrace.$id.withValue(request.traceID) {
            let confirmation = try await backend.call("charge \(request.order)")
            Task.detached(priority: .background) {
                await RequestTrace.$id.withValue(request.traceID) {
                    _ = try? await backend.call("receipt \(request.order)")
                }
            }
            return confirmation
        }
    }
}
