/// The photos picked for one upload.
///
/// Unchanged: a batch is owned by one piece of code at a time. It is handed over with
/// `sending` (see `PhotoExporter.startUpload`), never shared.
public final class UploadBatch {
    /// The ids of the photos, in the order they were picked.
    public private(set) var photos: [String]

    public init(photos: [String] = []) {
        self.photos = photos
    }

    /// Adds photo `id` to the batch.
    public func add(_ id: String) {
        photos.append(id)
    }
}
