/// The simulated photo service of chapter 13: it renders photos for export and uploads batches.
///
/// Renders wait at a ``Gate`` after they start, and so does opening an upload session, so a
/// test can change what the screen holds (the quality slider, the photos picked) while the
/// work is in flight, then let it finish and see what the work actually used: the quality and
/// watermark of each photo, and the photos each upload sent.
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

    private let renderGate: Gate
    private let sessionGate: Gate
    private let uploads = Locked<[[String]]>([])

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
        renderGate = Gate(closed: holdRenders)
        sessionGate = Gate(closed: holdUploads)
    }

    /// Renders photo `id` at `quality`, with no watermark yet, after the render gate lets it through.
    public func render(_ id: String, quality: Double) async -> RenderedPhoto {
        rendersStarted.increment()
        try? await renderGate.pass()
        defer { rendersFinished.increment() }
        return RenderedPhoto(id: id, quality: quality, watermark: nil)
    }

    /// Stamps `watermark` (nil: none) on a rendered photo.
    public func stamp(_ photo: RenderedPhoto, watermark: String?) -> RenderedPhoto {
        RenderedPhoto(id: photo.id, quality: photo.quality, watermark: watermark)
    }

    /// Opens an upload session, after the session gate lets it through.
    public func openSession() async -> UploadSession {
        sessionsRequested.increment()
        try? await sessionGate.pass()
        return UploadSession(studio: self)
    }

    /// Lets every held render through, and every later one.
    public func releaseRenders() { renderGate.open() }

    /// Lets every held upload session open, and every later one.
    public func releaseUploads() { sessionGate.open() }

    /// The batches uploaded so far, in order, each as the photo ids it sent.
    public var uploadedBatches: [[String]] { uploads.withLock { $0 } }
}
