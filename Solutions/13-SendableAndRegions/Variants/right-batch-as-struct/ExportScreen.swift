import SimulatedWorld

/// The export screen: a quality slider and a watermark field (``settings``), the photos the
/// user picks for the next upload, an Export button and an Upload button.
@MainActor
public final class ExportScreen {
    /// What the controls say now. Moving the slider while an export runs is for the next export.
    public var settings: ExportSettings
    /// The progress of every export the screen starts, shown under the Export button.
    public let progress = ExportProgress()
    private let exporter: PhotoExporter
    private var batch = UploadBatch()

    public init(studio: ExportStudio, settings: ExportSettings = ExportSettings()) {
        exporter = PhotoExporter(studio: studio)
        self.settings = settings
    }

    /// The photos picked for the next upload.
    public var pickedPhotos: [String] { batch.photos }

    /// The user picks photo `id` for the next upload.
    public func pick(_ id: String) {
        batch.add(id)
    }

    /// Exports `photos` in the background with the settings on screen now. The task that is
    /// returned ends with the exported photos.
    ///
    /// Fixed by the types: `settings` is captured as a copy, `progress` is `Sendable`.
    public func exportTapped(_ photos: [String]) -> Task<[ExportStudio.RenderedPhoto], Never> {
        Task.detached { [exporter, settings, progress] in
            await exporter.export(photos, settings: settings, progress: progress)
        }
    }

    /// Uploads the photos picked so far. Photos picked from now on go in the next upload.
    public func uploadTapped() -> Task<Void, Never> {
        defer { batch = UploadBatch() }
        return exporter.startUpload(batch)
    }
}
