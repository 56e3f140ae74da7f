import SimulatedWorld

extension Gallery {
    /// The viewer has downloaded the full-size `photo`: keep a copy in the disk cache, so that
    /// opening it again is instant. Runs in the viewer's task, which is cancelled when the
    /// user closes the viewer.
    ///
    /// Exercise: left alone, the photo is saved. Close the viewer while the disk is busy and
    /// look at the cache.
    public func fullSizeLoaded(_ photo: Thumbnail) async {
        try? await cache.save(photo)
    }
}
