/// A callback-based renderer whose jobs take as long as the test wants, like a filter that
/// runs on a GPU queue of its own. A job finishes only when the test calls ``finishAll()``,
/// or when someone calls its ``Job/cancel()``; either way its completion runs exactly once.
///
/// ``cancelsSeen`` is how a test proves that a cancel reached the job, rather than the job
/// simply being forgotten.
public final class SlowRenderer: Sendable {
    /// One running render. Keep it to be able to cancel it.
    public final class Job: Sendable {
        public let id: String
        private let completion: Locked<(@Sendable (Result<Thumbnail, any Error>) -> Void)?>
        private let renderer: SlowRenderer

        fileprivate init(
            id: String, renderer: SlowRenderer,
            completion: @escaping @Sendable (Result<Thumbnail, any Error>) -> Void
        ) {
            self.id = id
            self.renderer = renderer
            self.completion = Locked(completion)
        }

        /// Stops the job if it is still running: it records the cancel and completes with
        /// `CancellationError`. Does nothing once the job has completed.
        public func cancel() {
            guard let completion = takeCompletion() else { return }
            renderer.cancelsSeen.increment()
            complete(completion, with: .failure(CancellationError()))
        }

        fileprivate func finish() {
            guard let completion = takeCompletion() else { return }
            complete(completion, with: .success(SlowRenderer.rendered(id)))
        }

        private func takeCompletion() -> (@Sendable (Result<Thumbnail, any Error>) -> Void)? {
            completion.withLock { completion in
                defer { completion = nil }
                return completion
            }
        }

        private func complete(
            _ completion: @Sendable (Result<Thumbnail, any Error>) -> Void, with result: Result<Thumbnail, any Error>
        ) {
            renderer.running.withLock { $0.removeAll { $0 === self } }
            completion(result)
            renderer.completed.increment()
        }
    }

    fileprivate let running = Locked<[Job]>([])

    /// Jobs started.
    public let started = ObservedCount()
    /// Jobs that were cancelled while still running: each one saw its cancel.
    public let cancelsSeen = ObservedCount()
    /// Jobs whose completion has run, finished or cancelled.
    public let completed = ObservedCount()

    public init() {}

    /// The thumbnail a finished render of `id` delivers.
    public static func rendered(_ id: String) -> Thumbnail {
        Thumbnail(id: id, pixels: Thumbnail.expected(for: id).pixels + [0xEE])
    }

    /// Starts rendering `id`. `completion` runs once: with the thumbnail when the test calls
    /// ``finishAll()``, or with `CancellationError` if the job is cancelled first.
    @discardableResult
    public func render(
        id: String, completion: @escaping @Sendable (Result<Thumbnail, any Error>) -> Void
    ) -> Job {
        let job = Job(id: id, renderer: self, completion: completion)
        running.withLock { $0.append(job) }
        started.increment()
        return job
    }

    /// Finishes every running job with its thumbnail.
    public func finishAll() {
        for job in running.withLock({ $0 }) { job.finish() }
    }
}
