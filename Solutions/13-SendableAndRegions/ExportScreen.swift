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
    /// Fixed: the screen keeps the picks as a value. A batch object is made only when the
    /// user taps Upload, and handed over whole.
    private var picked: [String] = []

    public init(studio: ExportStudio, settings: ExportSettings = ExportSettings()) {
        exporter = PhotoExporter(studio: studio)
        self.settings = settings
    }

    /// The photos picked for the next upload.
    public var pickedPhotos: [String] { picked }

    /// The user picks photo `id` for the next upload.
    public func pick(_ id: String) {
        picked.append(id)
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
    ///
    /// Fixed: a new batch, in a region of its own, sent to the upload and never used here
    /// again. The next picks start a new list.
    public func uploadTapped() -> Task<Void, Never> {
        let batch = UploadBatch(photos: picked)
        picked = []
        return exporter.startUpload(batch)
    }
}
