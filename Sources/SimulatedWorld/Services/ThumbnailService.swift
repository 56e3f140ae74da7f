import Foundation
import Synchronization

/// A small image, as the thumbnail service delivers it.
public struct Thumbnail: Sendable, Hashable, Codable {
    public let id: String
    public let pixels: [UInt8]

    public init(id: String, pixels: [UInt8]) {
        self.id = id
        self.pixels = pixels
    }

    /// The thumbnail the service serves for `id`: recognisable, and the same every time.
    public static func expected(for id: String) -> Thumbnail {
        Thumbnail(id: id, pixels: Array(id.utf8) + [0xAB])
    }
}

/// What the thumbnail service knows about an image.
public struct ThumbnailMetadata: Sendable, Hashable, Codable {
    public let id: String
    public let caption: String

    public init(id: String, caption: String) {
        self.id = id
        self.caption = caption
    }

    /// The metadata the service serves for `id`.
    public static func expected(for id: String) -> ThumbnailMetadata {
        ThumbnailMetadata(id: id, caption: "Caption of \(id)")
    }
}

/// A failure the tests injected into the thumbnail service.
public enum ThumbnailServiceError: Error, Sendable, Hashable {
    case injectedFailure(id: String, request: ThumbnailService.RequestKind)
}

/// A simulated thumbnail service with async requests, driven by the tests.
///
/// - **Gate.** While requests are held (``holdRequests()``), each request suspends after
///   it starts, until the test releases it (``release(_:id:)``, ``releaseAll()``) or its
///   task is cancelled. That is how a test proves two requests are in flight at once:
///   hold them, then await ``inFlight`` reaching 2. No timing involved.
/// - **Counts.** ``started``, ``inFlight`` (with its peak), ``finished`` and ``cancelled``.
///   A request "sees the cancel" when its task is cancelled while it is held, or when it
///   starts in a task that is already cancelled; either way it throws
///   `URLError(.cancelled)` and counts in ``cancelled``, as `URLSession`'s async methods
///   do (they throw `URLError(.cancelled)`, not `CancellationError`, in both cases).
/// - **Failures.** ``fail(_:for:)`` makes a request throw ``ThumbnailServiceError``.
/// - **Resize.** ``resizeStep(_:step:)`` is one small step of CPU-bound work. It never
///   checks cancellation itself: that is the caller's job. ``onResizeStep(_:)`` lets a test
///   act at an exact step, for example cancel the task after step 3.
public final class ThumbnailService: Sendable {
    /// The two kinds of request the service answers.
    public enum RequestKind: String, Sendable, Hashable, Codable {
        case image, metadata
    }

    /// One request, as the service saw it.
    public struct Request: Sendable, Hashable {
        public let kind: RequestKind
        public let id: String

        public init(kind: RequestKind, id: String) {
            self.kind = kind
            self.id = id
        }
    }

    private struct State {
        var holding: Bool
        var held = Waitlist<Void, Request>()
        var admitted: Set<Request> = []
        var failures: Set<Request> = []
        var startedRequests: [Request] = []
        var resizeStepHandler: (@Sendable (Int) -> Void)?
        var requestStartHandler: (@Sendable (Request) -> Void)?
        var failurePlan: FailurePlan?
    }

    private let state: Locked<State>

    /// Requests that have started, whatever became of them.
    public let started = ObservedCount()
    /// Requests that have started and not yet finished, failed or been cancelled.
    /// Its `peak` is the most that were ever in flight at once.
    public let inFlight = ObservedCount()
    /// Requests that returned a value.
    public let finished = ObservedCount()
    /// Requests that saw their task's cancellation.
    public let cancelled = ObservedCount()
    /// Resize steps performed, by anyone.
    public let resizeSteps = ObservedCount()

    /// A service that answers at once, or holds every request if `holdingRequests` is true.
    public init(holdingRequests: Bool = false) {
        state = Locked(State(holding: holdingRequests))
    }

    // MARK: Scripting, by the tests

    /// From now on, requests suspend after starting until released or cancelled.
    public func holdRequests() { state.withLock { $0.holding = true } }

    /// Releases every held request and stops holding new ones.
    public func releaseAll() {
        let released = state.withLock { state in
            state.holding = false
            return state.held.removeAll()
        }
        for held in released { held.continuation.resume() }
    }

    /// Releases the held request of `kind` for `id`, if there is one. Returns whether there was.
    @discardableResult
    public func release(_ kind: RequestKind, id: String) -> Bool {
        let request = Request(kind: kind, id: id)
        let released = state.withLock { $0.held.remove { $0.tag == request } }
        released?.continuation.resume()
        return released != nil
    }

    /// Lets the next `kind` request for `id` through the gate: at once if it is held, or as
    /// soon as it reaches the gate if it is in flight but not there yet. Unlike
    /// ``release(_:id:)``, it cannot miss a request that has just started.
    public func admit(_ kind: RequestKind, id: String) {
        let request = Request(kind: kind, id: id)
        let released = state.withLock { state -> Waitlist<Void, Request>.Waiter? in
            if let held = state.held.remove(where: { $0.tag == request }) { return held }
            state.admitted.insert(request)
            return nil
        }
        released?.continuation.resume()
    }

    /// Makes the `kind` request for `id` throw ``ThumbnailServiceError/injectedFailure(id:request:)``
    /// (after it is released, if requests are held).
    public func fail(_ kind: RequestKind, for id: String) {
        _ = state.withLock { $0.failures.insert(Request(kind: kind, id: id)) }
    }

    /// Lets `plan` decide which request fails: every request that gets through the gate is
    /// one call of the plan, and the one the plan fails throws
    /// ``ThumbnailServiceError/injectedFailure(id:request:)``, like ``fail(_:for:)``.
    public func failRequests(per plan: FailurePlan) {
        state.withLock { $0.failurePlan = plan }
    }

    /// Calls `handler` with each request as it starts, before it looks at cancellation: a
    /// test can count requests as steps, or cancel the task at an exact request.
    public func onRequestStart(_ handler: @escaping @Sendable (Request) -> Void) {
        state.withLock { $0.requestStartHandler = handler }
    }

    /// Calls `handler` with the step number during every ``resizeStep(_:step:)``.
    public func onResizeStep(_ handler: @escaping @Sendable (Int) -> Void) {
        state.withLock { $0.resizeStepHandler = handler }
    }

    // MARK: Observation

    /// The requests currently held at the gate.
    public var heldRequests: [Request] { state.withLock { $0.held.waiters.map(\.tag) } }

    /// Every request that started, in order.
    public var startedRequests: [Request] { state.withLock { $0.startedRequests } }

    // MARK: The service

    /// Fetches the thumbnail image for `id`.
    public func fetchImage(id: String) async throws -> Thumbnail {
        try await perform(Request(kind: .image, id: id))
        return .expected(for: id)
    }

    /// Fetches the metadata for `id`.
    public func fetchMetadata(id: String) async throws -> ThumbnailMetadata {
        try await perform(Request(kind: .metadata, id: id))
        return .expected(for: id)
    }

    /// One small, CPU-bound step of resizing `image`. Never checks cancellation.
    public func resizeStep(_ image: Thumbnail, step: Int) -> Thumbnail {
        resizeSteps.increment()
        state.withLock { $0.resizeStepHandler }?(step)
        var checksum: UInt8 = 0
        for pixel in image.pixels { checksum = checksum &+ pixel &* 31 }
        return Thumbnail(id: image.id, pixels: image.pixels + [checksum])
    }

    private func perform(_ request: Request) async throws {
        // Recorded before the counters move, so a test that waits for a count sees the request.
        let onStart = state.withLock { state in
            state.startedRequests.append(request)
            return state.requestStartHandler
        }
        started.increment()
        inFlight.increment()
        defer { inFlight.decrement() }
        onStart?(request)
        do {
            // Like URLSession: a request started in a cancelled task fails at once, as cancelled.
            if Task.isCancelled { throw URLError(.cancelled) }
            try await passGate(request)
        } catch {
            cancelled.increment()
            throw error
        }
        let plan = state.withLock { $0.failurePlan }
        let planned = plan?.nextCallFails("\(request.kind.rawValue) \"\(request.id)\"") ?? false
        if planned || state.withLock({ $0.failures.contains(request) }) {
            throw ThumbnailServiceError.injectedFailure(id: request.id, request: request.kind)
        }
        finished.increment()
    }

    /// Suspends a held request until it is released or its task is cancelled.
    private func passGate(_ request: Request) async throws {
        let ticket = state.withLock { state -> Int? in
            guard state.holding else { return nil }
            return state.held.takeTicket()
        }
        guard let ticket else { return }
        try await state.wait(in: \.held, ticket: ticket, tag: request, cancellation: { URLError(.cancelled) }) {
            state in
            if state.admitted.remove(request) != nil { return .success(()) }
            // releaseAll() ran after this request took its ticket: it must not wait.
            return state.holding ? nil : .success(())
        }
    }
}
