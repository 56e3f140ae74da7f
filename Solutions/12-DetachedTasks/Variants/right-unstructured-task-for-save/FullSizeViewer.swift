import SimulatedWorld

extension Gallery {
    /// The viewer has downloaded the full-size `photo`: keep a copy in the disk cache, so that
    /// opening it again is instant. Runs in the viewer's task, which is cancelled when the
    /// user closes the viewer.
    public func fullSizeLoaded(_ photo: Thumbnail) async {
        // An unstructured task is no child of the viewer's task either, so the viewer's cancel
        // doesn't reach it. It starts on the main actor, and the save's first await leaves it.
        Task(priority: .background) { [cache] in
            try? await cache.save(photo)
        }
    }
}
