/// The photos picked for one upload.
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
