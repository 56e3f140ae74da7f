/// An image as the image host serves it.
public struct HostedImage: Sendable, Hashable, CustomStringConvertible {
    /// The image's id, for example "cat".
    public let id: String
    /// Which download produced it: 1 for the host's first download, 2 for its second, and so on.
    /// Two callers that hold images with the same `download` shared one download.
    public let download: Int

    public init(id: String, download: Int) {
        self.id = id
        self.download = download
    }

    public var description: String { "\"\(id)\" (download #\(download))" }
}

/// The error of a download that a test made fail with ``ImageHost/fail(_:)``.
public enum ImageHostError: Error, Sendable, Hashable, CustomStringConvertible {
    case unavailable(id: String, download: Int)

    public var description: String {
        switch self {
        case .unavailable(let id, let download): "download #\(download) of \"\(id)\" failed"
        }
    }
}

/// A simulated image server for chapter 14, driven by the tests.
///
/// - **Held downloads.** A host made with `holding: true` holds every download after it
///   starts, one gate per image id, until the test lets that id through with ``release(_:)``
///   or ``fail(_:)`` (or every id with ``releaseAll()``). Once an id is let through, its
///   later downloads pass at once. Nothing here depends on timing.
/// - **Counts.** ``started`` (with the ids in ``requests``), ``inFlight`` (with its peak),
///   ``finished``, ``failed`` and ``cancelled``: a download whose task is cancelled while
///   it is held, or that starts in a task already cancelled, throws `CancellationError`
///   and counts in ``cancelled``, the way a real transfer is torn down.
public final class ImageHost: Sendable {
    private let held: HeldRequests<String>

    /// Downloads started, whatever became of them.
    public var started: ObservedCount { held.started }
    /// Downloads started and not yet ended. Its `peak` is the most at once.
    public var inFlight: ObservedCount { held.inFlight }
    /// Downloads that delivered an image.
    public let finished = ObservedCount()
    /// Downloads that failed because the test said so with ``fail(_:)``.
    public let failed = ObservedCount()
    /// Downloads that saw their task's cancellation.
    public var cancelled: ObservedCount { held.cancelled }

    /// A host whose downloads wait after starting (`holding: true`) or pass at once.
    public init(holding: Bool = true) {
        held = HeldRequests(holding: holding)
    }

    /// The ids of every download started, in order.
    public var requests: [String] { held.requests }

    /// How many downloads of `id` have started.
    public func downloads(of id: String) -> Int { requests.filter { $0 == id }.count }

    /// Lets the held downloads of `id` deliver their image, and every later one at once.
    public func release(_ id: String) { held.letThrough(id, failing: false) }

    /// Makes the held downloads of `id` fail with ``ImageHostError``, and every later one,
    /// until ``release(_:)`` says otherwise.
    public func fail(_ id: String) { held.letThrough(id, failing: true) }

    /// Lets every download through, held now or started later.
    public func releaseAll() { held.releaseAll() }

    /// Calls `handler` with the id of each download as it starts, before it is held or looks
    /// at cancellation: a test can count downloads as steps, or cancel a task at an exact one.
    public func onDownloadStart(_ handler: @escaping @Sendable (String) -> Void) { held.onStart(handler) }

    /// Lets `plan` decide which download fails too, with ``ImageHostError``: every download
    /// that gets through its gate is one call of the plan, described by its id.
    public func failDownloads(per plan: FailurePlan) { held.fail(per: plan) }

    /// Downloads image `id`. Held at the gate of `id` while the host holds it; throws
    /// `CancellationError` if the task is cancelled before or while it is held.
    public func download(_ id: String) async throws -> HostedImage {
        try await held.pass(id) { passage in
            if passage.failed {
                failed.increment()
                throw ImageHostError.unavailable(id: id, download: passage.number)
            }
            finished.increment()
            return HostedImage(id: id, download: passage.number)
        }
    }
}
