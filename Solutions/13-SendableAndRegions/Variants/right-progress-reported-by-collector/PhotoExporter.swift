import SimulatedWorld

/// Exports photos through the studio: renders them all at once and stamps the watermark,
/// and uploads batches in the background.
public struct PhotoExporter: Sendable {
    public let studio: ExportStudio

    public init(studio: ExportStudio) {
        self.studio = studio
    }

    /// Renders every photo in `photos` with `settings`, at the same time, and reports each
    /// finished photo to `progress`. Returns the photos in the order of `photos`.
    ///
    /// Fixed: each child task captures a copy of the `Sendable` settings and the `Sendable`
    /// progress, so nothing here changes in the caller.
    public func export(
        _ photos: [String], settings: ExportSettings, progress: ExportProgress
    ) async -> [ExportStudio.RenderedPhoto] {
        await withTaskGroup(of: ExportStudio.RenderedPhoto.self) { group in
            for id in photos {
                group.addTask {
                    let rendered = await studio.render(id, quality: settings.quality)
                    return studio.stamp(rendered, watermark: settings.watermark)
                }
            }
            // Each photo is reported here, as the group hands it over: in the order they finish.
            var byID: [String: ExportStudio.RenderedPhoto] = [:]
            for await photo in group {
                byID[photo.id] = photo
                progress.photoFinished(photo.id)
            }
            return photos.compactMap { byID[$0] }
        }
    }

    /// Starts uploading `batch` in the background and returns at once. The task that is
    /// returned ends when the batch is uploaded.
    ///
    /// Fixed: `sending`. The caller hands the batch over and may not touch it again, so the
    /// new task can own it. The compiler now checks that at every call site.
    public func startUpload(_ batch: sending UploadBatch) -> Task<Void, Never> {
        Task {
            let session = await studio.openSession()
            await session.upload(batch.photos)
        }
    }
}
