/// The simulated photo service of chapter 13: it renders photos for export and uploads batches.
///
/// Renders wait at a gate after they start, one gate per photo, and so does opening an upload
/// session, one gate per session, so a test can change what the screen holds (the quality
/// slider, the photos picked) while the work is in flight, then let it finish, all at once or
/// one piece at a time in the order it chooses, and see what the work actually used: the
/// quality and watermark of each photo, and the photos each upload sent.
///
/// Renders and uploads never fail. A render or a session request whose task is cancelled while
/// it is held stops waiting and goes on: the studio finishes what it has started.
public final class ExportStudio: Sendable {
    /// One photo as the renderer produced it.
    public struct RenderedPhoto: Sendable, Hashable, CustomStringConvertible {
        public let id: String
        public let quality: Double
        public let watermark: String?

        public init(id: String, quality: Double, watermark: String?) {
            self.id = id
            self.quality = quality
            self.watermark = watermark
        }

        public var description: String {
            "\"\(id)\" at quality \(quality)" + (watermark.map { " with watermark \"\($0)\"" } ?? " with no watermark")
        }
    }

    /// An open upload session: sends one batch of photos.
    public struct UploadSession: Sendable {
        let studio: ExportStudio

        /// Uploads `photos` (their ids) as one batch.
        public func upload(_ photos: [String]) async {
            studio.uploads.withLock { $0.append(photos) }
            studio.uploadsFinished.increment()
        }
    }

    private let renders: HeldRequests<String>
    private let sessions: HeldRequests<Int>
    private let uploads = Locked<[[String]]>([])
    private let sessionNumbers = Locked(0)
    /// Renders that have started.
    public let rendersStarted = ObservedCount()
    /// Renders that have returned a photo.
    public let rendersFinished = ObservedCount()
    /// Upload sessions asked for (each waits at the session gate while uploads are held).
    public let sessionsRequested = ObservedCount()
    /// Batches uploaded.
    public let uploadsFinished = ObservedCount()

    /// A studio whose renders and upload sessions go through at once, or wait until
    /// ``releaseRenders()`` / ``releaseUploads()``.
    public init(holdRenders: Bool = false, holdUploads: Bool = false) {
        renders = HeldRequests(holding: holdRenders)
        sessions = HeldRequests(holding: holdUploads)
    }

    /// Renders photo `id` at `quality`, with no watermark yet, after the render gate of `id`
    /// lets it through.
    public func render(_ id: String, quality: Double) async -> RenderedPhoto {
        rendersStarted.increment()
        _ = try? await renders.pass(id) { _ in }
        defer { rendersFinished.increment() }
        return RenderedPhoto(id: id, quality: quality, watermark: nil)
    }

    /// Stamps `watermark` (nil: none) on a rendered photo.
    public func stamp(_ photo: RenderedPhoto, watermark: String?) -> RenderedPhoto {
        RenderedPhoto(id: photo.id, quality: photo.quality, watermark: watermark)
    }

    /// Opens an upload session, after the session gate lets it through. Sessions are numbered
    /// from 1 in the order they are asked for; a test can let them open one by one.
    public func openSession() async -> UploadSession {
        let number = sessionNumbers.withLock {
            $0 += 1
            return $0
        }
        sessionsRequested.increment()
        _ = try? await sessions.pass(number) { _ in }
        return UploadSession(studio: self)
    }

    /// Lets every held render through, and every later one.
    public func releaseRenders() { renders.releaseAll() }

    /// Lets the render of photo `id` through, held now or started later; the others stay held.
    public func releaseRender(of id: String) { renders.letThrough(id, failing: false) }

    /// Calls `hook` with the photo's id as each render starts, before it is held: a test can
    /// count renders as steps, or cancel a task at an exact one.
    public func onRenderStart(_ hook: @escaping @Sendable (String) -> Void) {
        renders.onStart(hook)
    }

    /// Lets every held upload session open, and every later one.
    public func releaseUploads() { sessions.releaseAll() }

    /// Lets upload session `number` open (1 for the first session asked for), held now or
    /// asked for later; the others stay held.
    public func releaseUpload(_ number: Int) { sessions.letThrough(number, failing: false) }

    /// The batches uploaded so far, in order, each as the photo ids it sent.
    public var uploadedBatches: [[String]] { uploads.withLock { $0 } }
}
