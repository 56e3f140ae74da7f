import SimulatedWorld
import Testing
import WorkbookTesting

#if Solutions
    import Ch14ActorReentrancySolution
#else
    import Ch14ActorReentrancy
#endif

private let reading = ChapterReading("14-ActorReentrancy")

/// What can go wrong in this chapter, in the learner's words.
enum Bugs {
    static let duplicateDownloads = reading.lesson(
        "two callers for the same image download it twice",
        "ImageCache.image(for:) checks its dictionary, then suspends in the download; a second caller runs during that suspension, finds nothing yet and starts its own download. Keep the download in flight (a Task per id) where the next caller finds it",
        section: "The state you checked has changed")
    static let downloadsAgain = reading.lesson(
        "an image already downloaded is downloaded again",
        "ImageCache.image(for:) must keep the finished image (or the finished task) so that later callers get it from memory",
        section: "Share the download in flight")
    static let callerNeverReturns = reading.lesson(
        "a caller of image(for:) never returns",
        "every caller waiting for a download must get its image or its error once the download ends",
        section: "Share the download in flight")
    static let failureKeptForever = reading.lesson(
        "a failed download is handed to every later caller",
        "the in-flight entry must go when the download ends, whether it succeeded or failed; otherwise later callers get the old error and the image is never asked for again",
        section: "When the download fails")
    static let sharedDownloadCancelled = reading.lesson(
        "cancelling one caller cancels the download the others wait for",
        "the shared download belongs to no single caller: a caller that is cancelled may stop waiting, but must not cancel the task the other callers await",
        section: "Cancelling one caller")
    static let downloadsOneAtATime = reading.lesson(
        "different images do not download side by side",
        "ImageCache.image(for:) must not make a download wait for another image's download: a busy flag (or a lock held across the await) makes every caller wait its turn",
        section: "A busy flag is not the answer")
    static let overdrawn = reading.lesson(
        "two overlapping withdrawals take out more than the balance",
        "Account.withdraw checks the balance, then suspends in the review; another withdrawal runs during that suspension. Check the balance again after the await, or take the money out before suspending",
        section: "An invariant across an await")
    static let coveredWithdrawalRefused = reading.lesson(
        "a withdrawal the balance covers is refused",
        "Account.withdraw must pay out a withdrawal the balance covers once the risk desk approves it",
        section: "An invariant across an await")
    static let blockedByReview = reading.lesson(
        "a withdrawal in review holds up the others",
        "while one withdrawal waits for its review, another must be reviewed and paid out, not refused or kept waiting: a busy flag turns the actor into a lock across the await",
        section: "A busy flag is not the answer")
    static let keepsMoney = reading.lesson(
        "a withdrawal that did not go through keeps its money",
        "a withdrawal that reserved its money before the review must give it back on every way out that isn't an approval: declined, cancelled, any error",
        section: "Reserve first, give back on failure")
    static let withdrawalNeverEnds = reading.lesson(
        "a withdrawal never returns",
        "Account.withdraw must return or throw once its review has ended",
        section: "An invariant across an await")
}

// MARK: - Driving the actor

/// Starts a caller of `image(for:)` in a task isolated to the cache: the closure uses the
/// isolated parameter, so it is isolated to the cache's actor (SE-0420). The caller first
/// counts itself in `arrivals` from code that can only run on that actor, then calls
/// `image(for:)` without crossing an isolation boundary, so it keeps the actor until
/// `image(for:)` first gives it up: SE-0420 guarantees that no other task's code runs on the
/// actor at the moment of a call between functions of the same isolation. Once a test has seen
/// the count, nothing isolated to the cache (no other caller, no download's ending) can run
/// before this caller has made its first checks. The test waits for that event, never for an
/// order in which the actor runs its jobs: Swift promises none (SE-0306).
func startCaller(
    _ cache: isolated ImageCache, for id: String, arrivals: ObservedCount? = nil
) -> Task<HostedImage, any Error> {
    Task {
        arrive(cache, counted: arrivals)
        return try await cache.image(for: id)
    }
}

/// Counts a caller that has begun to run on the cache's actor; runs only there.
private func arrive(_ cache: isolated ImageCache, counted arrivals: ObservedCount?) {
    arrivals?.increment()
}

/// A caller of `image(for:)`, running in its own task.
typealias Caller = Task<HostedImage, any Error>

/// A cache over a host that holds every download until the test lets it through.
@MainActor
struct CacheScene {
    let host = ImageHost(holding: true)
    let cache: ImageCache
    /// Callers started by `twoCallers` that have begun to run on the cache's actor.
    let arrivals = ObservedCount()

    init() {
        cache = ImageCache(host: host)
    }

    /// Starts a first caller for `id` and waits until its download has reached the host (and
    /// is held there); then starts a second caller for the same `id` and waits until it has
    /// begun to run on the cache's actor, so it makes its checks while the first download is
    /// still held. Both waits are for events, bounded; a caller that never gets there records
    /// a lesson that says so, and the function returns nil with every download let through.
    func twoCallers(for id: String) async -> (first: Caller, second: Caller)? {
        let first = await startCaller(cache, for: id, arrivals: arrivals)
        let started = host.started
        if case .stillSuspended = await withinHangLimit(hangLimit, { await started.reach(1) }) {
            Bugs.callerNeverReturns.record(
                "The first caller of image(for: \"\(id)\") never asked the host for it (host requests: \(requests)): it is still waiting, for nothing that will ever end."
            )
            host.releaseAll()
            return nil
        }
        let second = await startCaller(cache, for: id, arrivals: arrivals)
        let arrivals = arrivals
        if case .stillSuspended = await withinHangLimit(hangLimit, { await arrivals.reach(2) }) {
            Bugs.callerNeverReturns.record(
                "While the first download of \"\(id)\" was held, a second caller of image(for:) never began to run on the cache's actor: something kept the actor from running it."
            )
            host.releaseAll()
            return nil
        }
        return (first, second)
    }

    /// How `caller` ended, or nil with `Bugs.callerNeverReturns` recorded if it never did.
    func outcome(of caller: Task<HostedImage, any Error>, _ name: String) async -> Result<HostedImage, any Error>? {
        let outcome = await withinHangLimit(hangLimit) { try await caller.value }
        guard case .finished(let result) = outcome else {
            Bugs.callerNeverReturns.record("The \(name) caller was still waiting after its download had ended.")
            return nil
        }
        return result
    }

    /// The ids the host was asked for, quoted: `["cat", "cat"]`.
    var requests: String { "[" + host.requests.map { "\"\($0)\"" }.joined(separator: ", ") + "]" }
}

// MARK: - Tests

@Suite("Chapter 14: an image cache actor shares downloads in flight")
@MainActor
struct ImageCacheTests {
    @Test("Two callers asking for the same image at once share one download", .exposesBug(Bugs.duplicateDownloads))
    func concurrentCallersShareOneDownload() async {
        let scene = CacheScene()
        defer { scene.host.releaseAll() }
        guard let (first, second) = await scene.twoCallers(for: "cat") else { return }
        scene.host.release("cat")
        guard let one = await scene.outcome(of: first, "first"), let two = await scene.outcome(of: second, "second")
        else { return }
        if scene.host.downloads(of: "cat") > 1 {
            Bugs.duplicateDownloads.record(
                "A second caller asked for \"cat\" while the first caller's download was in flight, and the host was asked \(scene.host.downloads(of: "cat")) times: \(scene.requests)."
            )
        }
        #expect(one.value?.id == "cat", "The first caller got \(one), not the image \"cat\".")
        #expect(two.value?.id == "cat", "The second caller got \(two), not the image \"cat\".")
    }

    @Test("An image already downloaded comes from memory")
    func finishedImageIsKept() async {
        let scene = CacheScene()
        defer { scene.host.releaseAll() }
        scene.host.release("cat")
        guard let first = await scene.outcome(of: await startCaller(scene.cache, for: "cat"), "first"),
            let second = await scene.outcome(of: await startCaller(scene.cache, for: "cat"), "second")
        else { return }
        #expect(first.value == second.value, "The two calls for \"cat\" got \(first) and \(second).")
        if scene.host.downloads(of: "cat") != 1 {
            Bugs.downloadsAgain.record(
                "\"cat\" was asked for twice, one call after the other, and the host was asked \(scene.host.downloads(of: "cat")) times: \(scene.requests)."
            )
        }
    }

    @Test("Different images download side by side")
    func differentImagesDownloadSideBySide() async {
        let scene = CacheScene()
        defer { scene.host.releaseAll() }
        let cat = await startCaller(scene.cache, for: "cat")
        let dog = await startCaller(scene.cache, for: "dog")
        let inFlight = scene.host.inFlight
        if case .stillSuspended = await withinHangLimit(hangLimit, { await inFlight.reach(2) }) {
            Bugs.downloadsOneAtATime.record(
                "\"cat\" and \"dog\" were asked for at once, but while \"cat\" was downloading the host saw only \(scene.requests): \"dog\" waited its turn."
            )
        }
        scene.host.releaseAll()
        let images = [await scene.outcome(of: cat, "\"cat\""), await scene.outcome(of: dog, "\"dog\"")]
        #expect(images.map { $0?.value?.id } == ["cat", "dog"], "The callers got \(images).")
    }

    @Test("A failed download ends for every caller waiting for it, and the next call tries again")
    func failedDownloadIsNotKept() async {
        let scene = CacheScene()
        defer { scene.host.releaseAll() }
        guard let (first, second) = await scene.twoCallers(for: "cat") else { return }
        scene.host.fail("cat")
        guard let one = await scene.outcome(of: first, "first"), let two = await scene.outcome(of: second, "second")
        else { return }
        for (name, result) in [("first", one), ("second", two)] where result.value != nil {
            Issue.record("The download of \"cat\" failed, yet the \(name) caller got \(result).")
        }
        // The host is back: the next call must ask it again and get the image.
        scene.host.release("cat")
        let downloadsBefore = scene.host.downloads(of: "cat")
        guard let third = await scene.outcome(of: await startCaller(scene.cache, for: "cat"), "third") else { return }
        switch third {
        case .success(let image):
            #expect(image.id == "cat", "The third caller asked for \"cat\" and got \(image).")
        case .failure(let error):
            let asked = scene.host.downloads(of: "cat") > downloadsBefore
            Bugs.failureKeptForever.record(
                asked
                    ? "After a failed download of \"cat\", the next call asked the host again but \(describeThrown(error))."
                    : "After a failed download of \"cat\", the next call didn't ask the host again: \(describeThrown(error)), the old failure (host requests: \(scene.requests))."
            )
        }
    }

    @Test("Cancelling one caller doesn't cancel the download the other caller waits for")
    func cancellingOneCallerKeepsTheSharedDownload() async {
        let scene = CacheScene()
        defer { scene.host.releaseAll() }
        guard let (first, second) = await scene.twoCallers(for: "cat") else { return }
        first.cancel()
        scene.host.release("cat")
        guard let two = await scene.outcome(of: second, "second") else { return }
        if case .failure(let error) = two {
            Bugs.sharedDownloadCancelled.record(
                "Both callers waited for \"cat\", the first caller's task was cancelled, and the second caller, never cancelled, got no image: \(describeThrown(error)) (downloads cancelled by the host: \(scene.host.cancelled.value))."
            )
        }
        // The cancelled caller may stop waiting (CancellationError) or get the image; either is fine.
        if case .failure(let error) = await scene.outcome(of: first, "first"), !(error is CancellationError) {
            Issue.record(
                "The cancelled first caller \(describeThrown(error)): neither the image nor CancellationError.")
        }
    }
}
