import SimulatedWorld

extension Gallery {
    /// The viewer has downloaded the full-size `photo`: keep a copy in the disk cache, so that
    /// opening it again is instant. Runs in the viewer's task, which is cancelled when the
    /// user closes the viewer.
    public func fullSizeLoaded(_ photo: Thumbnail) async {
        // Structured is always better: the save runs as a child of the viewer's task.
        let cache = cache
        await withTaskGroup(of: Void.self) { group in
            group.addTask { _ = try? await cache.save(photo) }
        }
    }
}
