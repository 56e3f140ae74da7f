import SimulatedWorld

extension Gallery {
    /// The viewer has downloaded the full-size `photo`: keep a copy in the disk cache, so that
    /// opening it again is instant. Runs in the viewer's task, which is cancelled when the
    /// user closes the viewer.
    public func fullSizeLoaded(_ photo: Thumbnail) async {
        // Start the save concurrently, and don't wait for it.
        let cache = cache
        async let _ = cache.save(photo)
    }
}
