/// The photos picked for one upload: a value, so every holder has its own copy.
public struct UploadBatch: Sendable {
    /// The ids of the photos, in the order they were picked.
    public private(set) var photos: [String]

    public init(photos: [String] = []) {
        self.photos = photos
    }

    /// Adds photo `id` to the batch.
    public mutating func add(_ id: String) {
        photos.append(id)
    }
}
